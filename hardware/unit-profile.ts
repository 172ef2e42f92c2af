/**
 * A hardware profile compiled once for the simulator: checked, with everything its parts derive from it
 * worked out a single time: the keys as the firmware numbers them, the matrices' column pins, the LED
 * segments and chain, and the unit's geometry (for the page). unitProfile() makes it from a name, a path
 * or a profile object; the board, its circuit, its LED chain, the real-interpreter board and the page's
 * server are handed this one object and use it as it is, never checking or deriving the profile again.
 */
import {
  checkProfile,
  columnPins,
  keyList,
  ledCount,
  ledSettleMs,
  loadProfile,
  profileFile,
  segmentOffsets,
  type KeyInfo,
  type Profile,
  type SegmentName,
} from "./profile.ts";
import { unitGeometry, type UnitGeometry } from "./geometry.ts";

export class UnitProfile {
  /** Every key, numbered as the firmware numbers them (hardware/profile.ts keyList). */
  readonly keys: KeyInfo[];
  /** All the matrices' column pins, in the order of the firmware's combined column read. */
  readonly columnPins: string[];
  /** Each LED segment's first LED in the chain and its length (-1 and 0 when the build lacks it). */
  readonly segments: Record<SegmentName, { start: number; count: number }>;
  readonly ledCount: number;
  /** ms from switching the LED supply on until the LEDs take data. */
  readonly ledSettleMs: number;
  private layout?: UnitGeometry;

  /** (Made by unitProfile, from a profile already checked.) */
  constructor(readonly profile: Profile) {
    this.keys = keyList(profile);
    this.columnPins = columnPins(profile);
    this.segments = segmentOffsets(profile);
    this.ledCount = ledCount(profile);
    this.ledSettleMs = ledSettleMs(profile);
  }

  /** Where every LED and key sits (hardware/geometry.ts), worked out when first asked. */
  get geometry(): UnitGeometry {
    return (this.layout ??= unitGeometry(this.profile, this.keys));
  }
}

/**
 * The one place the simulator checks a profile and compiles it: a profile name or path (loaded and checked,
 * hardware/profiles), a profile object (a checked copy), or a compiled profile (returned as it is).
 */
export function unitProfile(source?: string | Profile | UnitProfile): UnitProfile {
  if (source instanceof UnitProfile) return source;
  return new UnitProfile(typeof source === "object" ? checkProfile(profileFile(structuredClone(source))) : loadProfile(source));
}
