/**
 * The battery's voltage, read through the profile's divider (hardware/profile.ts BatteryDivider). analogRead is a
 * fraction of the ADC's full scale: on the Pico that is the MCU supply, which E.getAnalogVRef() measures; where the
 * profile gives the full scale in volts (ESP32 at 11 dB, whose getAnalogVRef only prints an error) that is used, and
 * getAnalogVRef is never called. A USB-only build has no battery in its profile and never gets here.
 */
export function batteryVolts(b: NonNullable<FirmwareProfile["battery"]>): number {
  let scale = b.fullScale || E.getAnalogVRef();
  if (!(scale > 0)) scale = 3.3;
  return analogRead(b.pin) * scale * b.ratio;
}
