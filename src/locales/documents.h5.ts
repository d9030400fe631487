/** H5: the web view waits for the rest of the dictionary, as every page but login and home (./full.h5.ts). */
import './full'

export {}
