/**
 * The power figures of a board, worked out from its profile and the parts' datasheet values: the LED rail's soft
 * start (how fast it rises and the inrush that follows), the USB-only current budget, and how long a cell lasts
 * while the unit sleeps switched on. hardware/README.md prints them; the netlist takes the soft start's values.
 */
import { ledCount, USB_ONLY_LED_BUDGET_MA, type Profile } from "../profile.ts";

/**
 * The LED switch: Q1 (AO3401A) with C_GD from gate to drain. While Q1's drain rises its gate sits at the Miller
 * plateau, so the gate current R_G takes (less what R_GS returns) all flows through C_GD: dV/dt = I_gate / C_GD. The
 * inrush into the rail's capacitance is then C x dV/dt, whatever the FET's own gain. C_GS (much larger than C_GD)
 * keeps the gate at the source while +5V itself comes up, so Q1 stays off then.
 */
export const SOFT_START = {
  rGs: { value: "220k", ohms: 220e3 },
  rG: { value: "27k", ohms: 27e3 },
  cGd: { value: "100nF" as const, farads: 100e-9 },
  cGs: { value: "2.2uF" as const, farads: 2.2e-6 },
  /** AO3401A datasheet (Alpha & Omega): V_GS(th) -0.5 / -0.9 / -1.3 V min / typ / max at -250 uA. */
  vthMaxV: 1.3,
  vthMinV: 0.5,
  /** The Miller plateau at the rail's few hundred mA lies between the threshold and the gate-charge curve's ~2.5 V. */
  plateauV: [1.0, 2.5] as const,
  railV: 5.0,
  bulkF: 220e-6,
  perLedF: 100e-9,
  /** A dark WS2812B draws about 1 mA once its supply is up (the profile's idleMaPerPixel). */
};

export interface SoftStartFigures {
  /** Capacitance on the LED rail, in uF. */
  railUf: number;
  /** Fastest and slowest rise of the rail, 0 to 5 V, in ms (plateau at 1.0 V and at 2.5 V). */
  riseMs: [number, number];
  /** The capacitive inrush during the ramp, in mA (largest and smallest). */
  inrushMa: [number, number];
  /** The dark LEDs' own current once the rail is up, in mA. */
  idleMa: number;
  /** Delay from the LED power pin going high to the ramp's start, at most, in ms. */
  delayMs: number;
  /** From the LED power pin going high until the rail is up, at most, in ms: what the firmware must wait. */
  settleMs: number;
  /** How far Q1's gate dips while +5V comes up (C_GD : C_GS divider), in V, against its smallest threshold. */
  powerUpVgs: number;
}

export function softStart(p: Profile): SoftStartFigures {
  const s = SOFT_START;
  const rail = s.bulkF + ledCount(p) * s.perLedF;
  const gateCurrent = (plateau: number) => (s.railV - plateau) / s.rG.ohms - plateau / s.rGs.ohms;
  const slew = (plateau: number) => gateCurrent(plateau) / s.cGd.farads; // V/s
  const fast = slew(s.plateauV[0]);
  const slow = slew(s.plateauV[1]);
  // Before the plateau the gate moves from the source to the threshold, charging C_GS + C_GD.
  const delay = ((s.cGs.farads + s.cGd.farads) * s.plateauV[1]) / gateCurrent(s.plateauV[1]);
  return {
    railUf: round(rail * 1e6, 1),
    riseMs: [round((s.railV / fast) * 1e3, 1), round((s.railV / slow) * 1e3, 1)],
    inrushMa: [Math.round(rail * fast * 1e3), Math.round(rail * slow * 1e3)],
    idleMa: ledCount(p) * p.leds.idleMaPerPixel,
    delayMs: Math.ceil(delay * 1e3),
    settleMs: Math.ceil((delay + s.railV / slow) * 1e3),
    powerUpVgs: round((s.railV * s.cGd.farads) / (s.cGd.farads + s.cGs.farads), 2),
  };
}

/**
 * USB only: everything comes through the Pico's USB polyfuse (500 mA hold) and its Schottky diode. The LEDs' budget
 * plus the rest must stay well under the fuse's hold current, which falls as it warms (about 80 % at 50 C).
 */
export const USB_ONLY = {
  fuseHoldMa: 500,
  /** Espruino Pico running flat out (espruino.com/Pico: about 35 mA). */
  picoMa: 35,
  /** 74AHCT1G125 with its input at 3.3 V (datasheet delta-I_CC 1.35 mA max). */
  shifterMa: 1.4,
  /** PS1240P02BT piezo through Q3 and the 1 k bleed resistor at 5 V, while it sounds. */
  buzzerMa: 5,
  /** The most the LEDs may be given on USB alone. */
  maxLedBudgetMa: USB_ONLY_LED_BUDGET_MA,
};

export function usbOnlyBudget(p: Profile): { ledMa: number; totalMa: number; fuseShare: number } {
  const ledMa = Math.min(p.leds.budgetMa, USB_ONLY.maxLedBudgetMa);
  const totalMa = round(ledMa + USB_ONLY.picoMa + USB_ONLY.shifterMa + (p.buzzer ? USB_ONLY.buzzerMa : 0), 1);
  return { ledMa, totalMa, fuseShare: round(totalMa / USB_ONLY.fuseHoldMa, 2) };
}

/**
 * Asleep but switched on (battery builds): the boost keeps running. Its no-load draw dominates everything else.
 */
export const SLEEP = {
  /** PowerBoost 1000C enabled with no load: about 5 mA (measure yours: the README's first power-on checks). */
  boostMa: 5,
  /** Pico in deep sleep: a few hundredths of a mA (espruino.com/Pico); the larger figure taken. */
  picoMa: 0.03,
  /** The LED rail is cut by Q1; U2's supply current with its input low (datasheet I_CC 0.01 mA max). */
  shifterMa: 0.01,
  cellMah: 2000,
};

export function sleepDrain(p: Profile): { totalMa: number; days: number; dividerMa: number } | undefined {
  if (!p.battery) return undefined;
  const dividerMa = (p.battery.fullV / ((p.battery.dividerRatio - 1) * 100e3 + 100e3)) * 1e3;
  const totalMa = SLEEP.boostMa + SLEEP.picoMa + SLEEP.shifterMa + dividerMa;
  return { totalMa: round(totalMa, 2), days: Math.floor(SLEEP.cellMah / totalMa / 24), dividerMa: round(dividerMa, 3) };
}

function round(v: number, places: number): number {
  const f = 10 ** places;
  return Math.round(v * f) / f;
}
