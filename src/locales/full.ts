/**
 * Imported first by every page except login and home: on H5 (./full.h5.ts) it waits for the rest of
 * the shopper's dictionary before the page's module runs. The mini-program has it all from the start.
 */
export {}
