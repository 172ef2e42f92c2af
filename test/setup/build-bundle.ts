import { buildFirmware, sizeReport, STORED_BOUND_BYTES } from "../../firmware/tools/build.ts";

/** Vitest global setup: build the bundle the device tests load into the virtual board. */
export default async function setup() {
  const r = await buildFirmware();
  console.log(`built ${r.out}: ${sizeReport(r.bytes)}; as stored (pretokenised): ${sizeReport(r.imageBytes, STORED_BOUND_BYTES)}`);
}
