export const NATIVE_RESULTS = {};
