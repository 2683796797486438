/** Vite's `?url` imports: the file is copied into the build and the import is its URL. */
declare module '*?url' {
  const url: string;
  export default url;
}

declare module '*.css';
