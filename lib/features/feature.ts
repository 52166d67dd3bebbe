/** One behaviour change the real server dates by feature level. */
export interface Feature {
  readonly level: number;
  readonly what: string;
}

export const f = (level: number, what: string): Feature => ({ level, what });
