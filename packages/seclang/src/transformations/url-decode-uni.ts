// urlDecodeUni: urlDecode plus `%uHHHH` → its low byte (full-width ASCII folded to ASCII).
// Example: SecRule ARGS "@rx \.\./" "id:1,t:none,t:urlDecodeUni"
import type { TransformationDef } from '../types.ts';
import { decodeUrl } from './url-decode.ts';

export const urlDecodeUni: TransformationDef = {
  name: 'urlDecodeUni',
  transform: (input) => decodeUrl(input, true),
};
