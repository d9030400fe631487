/** The mini-program and the tests: Taro's components bring their own styles (see taro-styles.h5.ts). */
export {}
