/** The hardware profile compiled into the bundle: its one type is CompiledProfile (firmware/ui/layout.ts). */
type FirmwareProfile = import("../ui/layout").CompiledProfile<Pin>;
declare module "brainboard:profile" {
  const profile: FirmwareProfile;
  export default profile;
}
