/** Replace me: one module per concept, named after its main export, with a test beside it. */
export function hello(name: string): string {
  return `Hello, ${name}`;
}
