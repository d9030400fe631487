/**
 * Imported first by the web view page, which shows the shop's agreements. In Jest the dictionary is
 * complete from the start; H5 (./documents.h5.ts) waits for the rest as every other page does; the
 * mini-program (./documents.weapp.ts) adds only the texts of that page, since the web view is in the
 * main package and the rest of the dictionary is in the subpackage.
 */
export {}
