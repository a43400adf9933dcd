// oidc-provider ships no types; the tests use its constructor, its request handler and its Grant model.
declare module 'oidc-provider' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Provider: any;
  export default Provider;
}
