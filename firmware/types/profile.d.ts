/** The hardware profile compiled into the bundle: its one type is CompiledProfile (firmware/profile.ts). */
type FirmwareProfile = import("../profile").CompiledProfile<Pin>;
declare module "brainboard:profile" {
  const profile: FirmwareProfile;
  export default profile;
}
