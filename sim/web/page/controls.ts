/** The panel's controls: watching the unit play, power, battery and the view's switches. */
import { apiFetch } from "./api.ts";
import { $, page } from "./state.ts";
import { command, setView, showOffline, toast } from "./link.ts";
import { audio } from "./sound.ts";

/** Starts or stops watching the unit play (the server runs the watcher; its status comes with the state). */
function watch(body: Record<string, unknown>): void {
  apiFetch("api/watch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    .then(async (res) => {
      if (!res.ok) toast((await res.json()).error || `watch: HTTP ${res.status}`);
    })
    .catch(() => showOffline(true));
}
$("watch").addEventListener("click", () => {
  audio.unlock();
  const preset = $("watch-preset").value;
  watch({
    action: "start",
    ...(preset ? { preset } : {}),
    ...($("watch-harder").checked ? { harder: true } : {}),
    secret: $("watch-head").checked ? "head" : "keyed",
  });
});
$("watch-stop").addEventListener("click", () => watch({ action: "stop" }));

$("power").addEventListener("click", () => command(page.lastState && page.lastState.on ? "power off" : "power on"));
$("cycle").addEventListener("click", () => command("power cycle"));
$("shield").addEventListener("click", () => setView({ shield: !page.lastState?.view.shield }));
$("labels").addEventListener("click", () => setView({ labels: !page.lastState?.view.labels }));
$("sound").addEventListener("click", () => {
  audio.unlock();
  setView({ muted: !page.lastState?.view.muted });
});
const sendBattery = () => command(`battery ${Number($("battery").value).toFixed(2)}${$("usb").checked ? " usb" : ""}`);
$("battery").addEventListener("change", sendBattery);
$("battery").addEventListener("input", () => {
  $("battery-text").textContent = `${Number($("battery").value).toFixed(2)} V`;
});
$("usb").addEventListener("change", sendBattery);
