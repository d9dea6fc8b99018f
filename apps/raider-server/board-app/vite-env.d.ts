/** CSS imported as text (Vite's `?inline`), inlined into the one HTML file. */
declare module '*.css?inline' {
  const css: string;
  export default css;
}
