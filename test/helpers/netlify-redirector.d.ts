// Types of netlify-redirector (Netlify's rule matcher, compiled to WebAssembly), which ships none: the part the tests use.
declare module 'netlify-redirector' {
  interface Matcher {
    match(request: {
      scheme: string;
      host: string;
      path: string;
      query: string;
      getHeader(name: string): string;
      getCookie(name: string): string;
    }): unknown;
  }
  const redirector: {
    parseJSON(rules: string, options: Record<string, unknown>): Promise<Matcher>;
    parsePlain(rules: string, options: Record<string, unknown>): Promise<Matcher>;
  };
  export default redirector;
}
