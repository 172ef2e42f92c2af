/**
 * Logical colours of the unit. The ui renders frames of these indices; the device layer turns them
 * into LED bytes (gamma, brightness cap, GRB). RGB values are as the eye should see them (sRGB-like);
 * the gamma table maps them to PWM duty.
 *
 * No colour is a scalar multiple of another, so each stays recognisable at any brightness the
 * current cap chooses (the simulator decodes pixels back to these names by hue). "Black" pegs cannot
 * be an unlit pixel (unlit means an empty hole or a blank), so black is shown as violet.
 */
export const OFF = 0;
export const RED = 1;
export const GREEN = 2;
export const BLUE = 3;
export const YELLOW = 4;
export const WHITE = 5;
export const ORANGE = 6;
export const PINK = 7;
export const VIOLET = 8;
/** A hole of the row being edited that has no peg yet. */
export const HOLE = 9;
export const CYAN = 10;

/** Names, by index: used by the simulator, the docs and the labels switch. */
export const COLOUR_NAMES = ["off", "red", "green", "blue", "yellow", "white", "orange", "pink", "violet", "hole", "cyan"];

/**
 * Perceived RGB per logical colour, 3 bytes each, by index: bytes, not an array, as the unit keeps it for good (a Pico
 * holds an array of 33 numbers in ~35 JsVars, these bytes in ~6).
 */
export const PALETTE_RGB = new Uint8Array([
  0,
  0,
  0, // off
  255,
  0,
  0, // red
  0,
  255,
  0, // green
  0,
  0,
  255, // blue
  255,
  220,
  0, // yellow
  255,
  255,
  255, // white
  255,
  120,
  0, // orange
  255,
  40,
  150, // pink
  150,
  0,
  255, // violet ("black")
  0,
  90,
  140, // hole: dim teal, distinct from blue, green and cyan by hue
  0,
  255,
  200, // cyan
]);
export const PALETTE_SIZE = PALETTE_RGB.length / 3;

/**
 * The code-peg colours, in the order of the colour keys. The first C are used by a C-colour preset
 * (docs/rules.md 2: Brainiac uses 6, the travel unit and the race 8). The race sheet names its eight:
 * black, white, red, blue, green, yellow, pink, orange.
 */
export const PEG_COLOURS = [RED, GREEN, BLUE, YELLOW, WHITE, ORANGE, PINK, VIOLET];
export const PEG_NAMES = ["red", "green", "blue", "yellow", "white", "orange", "pink", "black"];
