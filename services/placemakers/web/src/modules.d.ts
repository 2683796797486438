declare module 'world-atlas/countries-110m.json' {
  const topology: unknown;
  export default topology;
}

declare module '*.css';
