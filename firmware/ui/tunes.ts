/**
 * Buzzer tunes: pairs of (frequency Hz, duration ms); 0 Hz is a rest. The unit keeps them for good: the longer ones as
 * 16-bit words (a Pico holds an array of n numbers in n + 1 JsVars, 2n bytes in ~3 + 2n / 12).
 */
export const TUNE_CLICK = [2400, 12];
export const TUNE_REFUSE = [180, 220];
/** Asks for a confirming press: two short middle notes. */
export const TUNE_CONFIRM = new Uint16Array([660, 70, 0, 50, 660, 70]);
export const TUNE_ACCEPT = [880, 50, 1320, 70];
export const TUNE_SOLVED = new Uint16Array([784, 90, 988, 90, 1175, 90, 1568, 220]);
export const TUNE_FAILED = new Uint16Array([523, 150, 392, 150, 262, 300]);
export const TUNE_WRONG_INFO = new Uint16Array([220, 120, 0, 60, 220, 120, 0, 60, 220, 240]);
export const TUNE_MATCH_OVER = new Uint16Array([523, 120, 659, 120, 784, 120, 1047, 360]);
