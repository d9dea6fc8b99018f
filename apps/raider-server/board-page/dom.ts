// The page's two DOM helpers, shared by main.ts and inboxes.ts.

/** The element with id `id`. */
export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** A new `tag` element with `props` and `children`. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}
