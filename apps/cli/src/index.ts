export { main } from './main.ts';
export { openRuntime, type Runtime } from './runtime.ts';
