/**
 * A small persistent (immutable) vector: a 32-way trie with path copying, as in Clojure's
 * PersistentVector. `push` and `set` return a new vector in O(log32 n) and share everything else
 * with the old one, so a snapshot of the `todo` list is taken in constant time and stays valid
 * whatever happens to the list afterwards.
 */

type Node<T> = readonly (Node<T> | T | undefined)[];

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

function setIn<T>(node: Node<T>, level: number, index: number, value: T): Node<T> {
  const copy = node.slice();
  if (level === 0) {
    copy[index & MASK] = value;
  } else {
    const slot = (index >>> level) & MASK;
    copy[slot] = setIn((node[slot] as Node<T> | undefined) ?? [], level - BITS, index, value);
  }
  return copy;
}

/** An immutable vector of values. */
export class PersistentVector<T> {
  /** `frozenArray()`, once built: the vector never changes, so neither does its array. */
  #frozen: readonly T[] | undefined;

  private constructor(
    /** Number of values. */
    readonly size: number,
    private readonly shift: number,
    private readonly root: Node<T>,
  ) {}

  /** The empty vector. */
  static empty<T>(): PersistentVector<T> {
    return new PersistentVector<T>(0, 0, []);
  }

  /** The value at `index` (0 <= index < size). */
  get(index: number): T {
    let node: Node<T> = this.root;
    for (let level = this.shift; level > 0; level -= BITS) node = node[(index >>> level) & MASK] as Node<T>;
    return node[index & MASK] as T;
  }

  /** A vector with `value` at `index` (0 <= index < size). */
  set(index: number, value: T): PersistentVector<T> {
    return new PersistentVector(this.size, this.shift, setIn(this.root, this.shift, index, value));
  }

  /** A vector with `value` appended. */
  push(value: T): PersistentVector<T> {
    let { root, shift } = this;
    // The trie is full at this depth: grow a level.
    if (this.size === 2 ** (shift + BITS)) {
      root = [root];
      shift += BITS;
    }
    return new PersistentVector(this.size + 1, shift, setIn(root, shift, this.size, value));
  }

  /** The values in order as a frozen array, built on the first call and the same one after. */
  frozenArray(): readonly T[] {
    this.#frozen ??= Object.freeze(this.toArray());
    return this.#frozen;
  }

  /** The values in order, as a new array. */
  toArray(): T[] {
    // Sized up front: an array grown by push is copied as it grows, twice the garbage.
    const out = new Array<T>(this.size);
    let at = 0;
    const walk = (node: Node<T>, level: number): void => {
      if (level === 0) {
        for (const value of node) out[at++] = value as T;
      } else {
        for (const child of node) walk(child as Node<T>, level - BITS);
      }
    };
    if (this.size) walk(this.root, this.shift);
    return out;
  }
}
