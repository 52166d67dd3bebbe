/** An event the replay cannot apply: a type or op no reducer knows. Reported with the event. */
export class UnmodelledEvent extends Error {
  override readonly name = 'UnmodelledEvent';
}
