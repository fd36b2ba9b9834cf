// Types the limiters share (the leaf of src/limits/'s imports).

/** One counting key in its window, as the store answered (or this instance counted it). */
export interface WindowState {
  /** Requests counted under the key in this window. */
  totalHits: number;
  /** Milliseconds to the window's end by the store's own clock (the whole window when the store does not say). */
  msToReset: number;
}
