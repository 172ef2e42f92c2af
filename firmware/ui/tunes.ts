/** Buzzer tunes: pairs of (frequency Hz, duration ms); 0 Hz is a rest. */
export const TUNE_CLICK = [2400, 12];
export const TUNE_REFUSE = [180, 220];
/** Asks for a confirming press: two short middle notes. */
export const TUNE_CONFIRM = [660, 70, 0, 50, 660, 70];
export const TUNE_ACCEPT = [880, 50, 1320, 70];
export const TUNE_SOLVED = [784, 90, 988, 90, 1175, 90, 1568, 220];
export const TUNE_FAILED = [523, 150, 392, 150, 262, 300];
export const TUNE_WRONG_INFO = [220, 120, 0, 60, 220, 120, 0, 60, 220, 240];
export const TUNE_MATCH_OVER = [523, 120, 659, 120, 784, 120, 1047, 360];
