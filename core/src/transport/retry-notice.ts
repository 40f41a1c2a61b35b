/** A retry cw is about to make, for the caller to tell the person. */
export interface RetryNotice {
  /** The retry's number, from 1. */
  readonly attempt: number;
  readonly delayMs: number;
  /** What failed: an HTTP status or a connection error code. */
  readonly cause: string;
}
