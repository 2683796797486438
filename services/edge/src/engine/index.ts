// The engine of the edge data plane: zone plans compiled from the configuration, run per request.
export { type ActiveWafs, activeWafs } from './active-wafs.ts';
export { CONFIG_CHANNEL, EdgeEngine, type EngineOptions } from './engine.ts';
export type { ZonePlan } from './plan.ts';
export type { EdgeRequest } from './request.ts';
export type {
  BlockResponse,
  EventAction,
  EventSource,
  MatchedDatum,
  RuleEvent,
  Terminal,
  TerminalAction,
  Verdict,
} from './verdict.ts';
