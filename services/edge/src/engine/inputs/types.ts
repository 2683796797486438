import type { InputLocation } from '../../managed/attacks/types.ts';

export type { InputLocation, InspectedInput } from '../../managed/attacks/types.ts';

export type Collect = (location: InputLocation, name: string, value: string) => void;
