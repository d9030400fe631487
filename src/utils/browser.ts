/** The one place that sets the browser's location (H5 only); tests replace `assign`. */
export const browser = {
  /** @h5only */
  assign (url: string): void {
    window.location.href = url
  }
}
