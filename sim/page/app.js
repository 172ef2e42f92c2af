// The simulator page: draws the unit from /api/layout, paints it from the state the server streams
// (/api/events), and sends key presses and commands back (/api/command, /api/view). It keeps no
// state of the board or the view: every LED, switch and reading comes from the server.

// The server's per-run token (issue 14), from the HTML it served: every API request carries it, the
// fetches as a header and the event stream (which cannot send headers) as ?token=. All of it is here.
const TOKEN = document.querySelector('meta[name="brainboard-token"]')?.getAttribute("content") ?? "";
const pageFetch = window.fetch.bind(window);
window.fetch = (url, init = {}) => pageFetch(url, { ...init, headers: { ...(init.headers || {}), "x-brainboard-token": TOKEN } });
const PageEventSource = window.EventSource;
window.EventSource = class extends PageEventSource {
  constructor(url, init) {
    super(`${url}${String(url).includes("?") ? "&" : "?"}token=${encodeURIComponent(TOKEN)}`, init);
  }
};

const $ = (id) => document.getElementById(id);
const unitEl = $("unit");
let layout = null;
/** Elements by segment name, index -> element that shows that LED (a hole, or a pad key's cap). */
const ledEls = {};
const keyEls = new Map();
let lastState = null;
/** Brain Flip's 100 pictures by id ({name, url}), from /api/pictures. */
let pictures = null;

// ---------------------------------------------------------------- commands

let queue = Promise.resolve();
/** Sends script lines to the board, one request after another (a release never overtakes its press). */
function command(text) {
  queue = queue
    .then(() => fetch("api/command", { method: "POST", headers: { "content-type": "text/plain" }, body: text }))
    .then(async (res) => {
      if (!res.ok) toast((await res.json()).error || `${text}: HTTP ${res.status}`);
    })
    .catch(() => showOffline(true));
  return queue;
}

function setView(change) {
  fetch("api/view", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(change) }).catch(() =>
    showOffline(true),
  );
}

let toastTimer = 0;
function toast(message) {
  const el = $("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

function showOffline(on) {
  $("offline").hidden = !on;
}

// ---------------------------------------------------------------- drawing the unit

function mm(v) {
  return `calc(var(--mm) * ${v})`;
}

function place(el, x, y, w, h) {
  el.style.left = mm(x - w / 2);
  el.style.top = mm(y - h / 2);
  el.style.width = mm(w);
  el.style.height = mm(h);
}

const COMBO_NAMES = { Enter: "⏎", Backspace: "⌫", Escape: "Esc", Delete: "Del" };
function comboLabel(combo) {
  const shift = combo.startsWith("Shift+");
  const base = shift ? combo.slice(6) : combo;
  return (shift ? "⇧" : "") + (COMBO_NAMES[base] || base.toUpperCase());
}

function build() {
  const g = layout.geometry;
  unitEl.innerHTML = "";
  for (const seg of Object.keys(ledEls)) delete ledEls[seg];
  keyEls.clear();
  cardsShown = "";
  unitEl.style.width = mm(g.width);
  unitEl.style.height = mm(g.height);
  $("model").textContent = `${g.name} · ${g.pegs} pegs × ${g.rows} rows`;

  for (const w of g.wells) {
    const el = document.createElement("div");
    el.className = `well well-${w.kind}`;
    place(el, w.x + w.w / 2, w.y + w.h / 2, w.w, w.h);
    unitEl.append(el);
  }
  for (const t of g.texts) {
    const el = document.createElement("div");
    el.className = `silk silk-${t.kind} anchor-${t.anchor}`;
    el.textContent = t.text;
    el.style.left = mm(t.x);
    el.style.top = mm(t.y);
    el.style.fontSize = mm(t.size * 1.4);
    unitEl.append(el);
  }
  for (const l of g.leds) {
    const hole = document.createElement("div");
    hole.className = `hole hole-${l.kind}${l.segment === "secret" ? " shielded" : ""}`;
    hole.dataset.segment = l.segment;
    hole.dataset.index = String(l.index);
    hole.title = l.title;
    place(hole, l.x, l.y, l.d + 1.6, l.d + 1.6);
    const light = document.createElement("div");
    light.className = "light";
    const initial = document.createElement("span");
    initial.className = "initial";
    light.append(initial);
    hole.append(light);
    unitEl.append(hole);
    (ledEls[l.segment] ||= [])[l.index] = hole;
  }
  for (const k of g.keys) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = `key key-${k.padLed === undefined ? "maker shielded" : "pad"}`;
    el.dataset.key = k.id;
    if (k.aliases.length) el.dataset.alias = k.aliases[0];
    el.title = `${k.title}${k.aliases.length ? ` (${k.aliases.join(", ")})` : ""}${k.shortcuts.length ? ` — keyboard: ${k.shortcuts.map(comboLabel).join(", ")}` : ""}`;
    place(el, k.x, k.y, k.size, k.size);
    el.innerHTML = `<span class="cap"></span><span class="legend"></span><span class="sub"></span><span class="kbd"></span><span class="initial"></span>`;
    el.dataset.title = el.title;
    el.querySelector(".legend").textContent = k.legend;
    el.querySelector(".sub").textContent = k.sublegend;
    const shortcut = k.shortcuts.find((s) => s !== k.legend);
    if (shortcut) el.querySelector(".kbd").textContent = comboLabel(shortcut);
    if (k.dot) {
      const dot = document.createElement("span");
      dot.className = "dot-print";
      dot.style.background = k.dot;
      el.append(dot);
    }
    if (k.padLed !== undefined) {
      // Brain Flip's picture card, shown on the key while the Brain Flip screen is on.
      const face = document.createElement("span");
      face.className = "card-face";
      face.innerHTML = `<img alt="" draggable="false" /><span class="card-name"></span>`;
      el.append(face);
      el.dataset.segment = "pad";
      el.dataset.index = String(k.padLed);
      (ledEls.pad ||= [])[k.padLed] = el;
    }
    bindKey(el, k.id);
    keyEls.set(k.id, el);
    unitEl.append(el);
  }
  if (g.shield) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "shield";
    el.id = "shield-cover";
    place(el, g.shield.x + g.shield.w / 2, g.shield.y + g.shield.h / 2, g.shield.w, g.shield.h);
    el.innerHTML = `<span class="shield-title">Codemaker's shield</span><span class="shield-hint">click or press Space to open</span><span class="hinge"></span>`;
    el.addEventListener("click", () => setView({ shield: !(lastState && lastState.view.shield) }));
    unitEl.append(el);
  }
  $("shield").hidden = !g.shield;

  // The keyboard help, from the server's shortcut table.
  const byAlias = new Map();
  for (const s of layout.shortcuts) byAlias.set(s.alias, [...(byAlias.get(s.alias) || []), s.combo]);
  const help = $("shortcuts");
  help.innerHTML = "";
  for (const [alias, combos] of byAlias) {
    const row = document.createElement("div");
    row.innerHTML = `<span class="keys"></span><span class="what"></span>`;
    row.querySelector(".keys").append(
      ...combos.map((c) => {
        const k = document.createElement("kbd");
        k.textContent = comboLabel(c);
        return k;
      }),
    );
    row.querySelector(".what").textContent = alias;
    help.append(row);
  }
  $("legend").textContent = layout.initialsLegend;
  $("flip-answers").innerHTML = flipAnswersHelp();
  if (layout.battery) {
    const b = $("battery");
    b.min = String(Math.floor((layout.battery.emptyV - 0.3) * 10) / 10);
    b.max = String(Math.ceil((layout.battery.fullV + 0.1) * 10) / 10);
  }
  resize();
}

/** How the Master answers: the codemaker pad's keys and their keyboard shortcuts (Z yes, X no...). */
function flipAnswersHelp() {
  const idOf = (alias) => (layout.aliases.find((a) => a.alias === alias) || {}).id;
  const combo = (alias) => {
    const s = layout.shortcuts.find((x) => x.id === idOf(alias));
    return s ? `<kbd>${comboLabel(s.combo)}</kbd>` : "";
  };
  if (!idOf("maker.yes"))
    return "The Master's keys light beside the cards: green yes, red no, orange undo, violet a Master's mistake, white OK; blue is the menu.";
  const what = [
    ["maker.yes", "yes"],
    ["maker.no", "no"],
    ["maker.undo", "undo"],
    ["maker.ok", "next round"],
  ];
  return `The Master answers on the codemaker pad, or: ${what.map(([a, w]) => `${combo(a)} ${w}`).join(" · ")}.`;
}

function resize() {
  if (!layout) return;
  const stage = $("stage");
  const g = layout.geometry;
  const k = Math.min((stage.clientWidth - 32) / g.width, (stage.clientHeight - 32) / g.height);
  document.documentElement.style.setProperty("--mm", `${Math.max(1, k).toFixed(3)}px`);
}

// ---------------------------------------------------------------- input

/** Keys this page holds down (mouse or keyboard), so that they are released when it loses focus. */
const held = new Map();

function down(source, id) {
  if (held.has(source)) return;
  held.set(source, id);
  audio.unlock();
  command(`press ${id}`);
}

function up(source) {
  const id = held.get(source);
  if (id === undefined) return;
  held.delete(source);
  command(`release ${id}`);
}

function bindKey(el, id) {
  el.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    // A Brain Flip card just pressed (the Master's pick, a guess) does not grow under the pointer.
    el.classList.add("touched");
    down(`pointer:${e.pointerId}`, id);
  });
  const release = (e) => up(`pointer:${e.pointerId}`);
  el.addEventListener("pointerup", release);
  el.addEventListener("pointerleave", (e) => {
    el.classList.remove("touched");
    release(e);
  });
  el.addEventListener("pointercancel", release);
  el.addEventListener("contextmenu", (e) => e.preventDefault());
}

function comboOf(e) {
  let base = e.key;
  if (/^Digit\d$/.test(e.code)) base = e.code.slice(5);
  else if (/^Key[A-Z]$/.test(e.code)) base = e.code.slice(3).toLowerCase();
  return (e.shiftKey ? "Shift+" : "") + base;
}

window.addEventListener("keydown", (e) => {
  if (!layout || e.ctrlKey || e.metaKey || e.altKey) return;
  // The battery slider keeps its own keys (arrows, Home, End, Page Up/Down); every other key is the unit's.
  if (e.target instanceof HTMLInputElement && e.target.type === "range" && /^(Arrow|Home|End|Page)/.test(e.key)) return;
  // A focused button would also act on Space or Enter: the keyboard belongs to the unit.
  if (document.activeElement instanceof HTMLButtonElement || document.activeElement instanceof HTMLInputElement)
    document.activeElement.blur();
  const combo = comboOf(e);
  const hit = layout.shortcuts.find((s) => s.combo === combo);
  if (hit) {
    e.preventDefault();
    if (!e.repeat) down(`key:${e.code}`, hit.id);
    return;
  }
  if (e.repeat) return;
  if (combo === " " && layout.geometry.shield) setView({ shield: !lastState.view.shield });
  else if (combo === "l") setView({ labels: !lastState.view.labels });
  else if (combo === "Shift+M") setView({ muted: !lastState.view.muted });
  else return;
  e.preventDefault();
  audio.unlock();
});
window.addEventListener("keyup", (e) => up(`key:${e.code}`));
window.addEventListener("blur", () => {
  for (const source of [...held.keys()]) up(source);
});
window.addEventListener("resize", resize);

/** Starts or stops watching the unit play (the server runs the watcher; its status comes with the state). */
function watch(body) {
  fetch("api/watch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
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

$("power").addEventListener("click", () => command(lastState && lastState.on ? "power off" : "power on"));
$("cycle").addEventListener("click", () => command("power cycle"));
$("shield").addEventListener("click", () => setView({ shield: !lastState.view.shield }));
$("labels").addEventListener("click", () => setView({ labels: !lastState.view.labels }));
$("sound").addEventListener("click", () => {
  audio.unlock();
  setView({ muted: !lastState.view.muted });
});
const sendBattery = () => command(`battery ${Number($("battery").value).toFixed(2)}${$("usb").checked ? " usb" : ""}`);
$("battery").addEventListener("change", sendBattery);
$("battery").addEventListener("input", () => {
  $("battery-text").textContent = `${Number($("battery").value).toFixed(2)} V`;
});
$("usb").addEventListener("change", sendBattery);

// ---------------------------------------------------------------- painting the state

function luminance([r, g, b]) {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function paint(s) {
  if (!lastState) requestAnimationFrame(() => requestAnimationFrame(() => unitEl.classList.add("ready")));
  lastState = s;
  unitEl.dataset.now = String(s.now);
  unitEl.classList.toggle("powered", s.on);
  unitEl.classList.toggle("shield-open", s.view.shield);
  unitEl.classList.toggle("labels", s.view.labels);
  for (const [segment, pixels] of Object.entries(s.segments)) {
    const els = ledEls[segment] || [];
    pixels.forEach((px, i) => {
      const el = els[i];
      if (!el) return;
      el.dataset.colour = px.name;
      el.dataset.rgb = px.rgb.join(",");
      const lit = px.name !== "off";
      el.classList.toggle("lit", lit);
      el.style.setProperty("--c", px.screen.join(","));
      el.classList.toggle("bright", luminance(px.screen) > 150);
      const initial = el.querySelector(".initial");
      if (initial) initial.textContent = lit && px.name !== "hole" ? layout.initials[px.name] || "?" : "";
    });
  }
  for (const [id, el] of keyEls) el.classList.toggle("pressed", s.pressed.includes(id));
  paintCards(s);

  $("power").textContent = s.on ? "Switch off" : "Switch on";
  $("led-power").classList.toggle("on", s.on);
  $("clock").textContent = `${s.on ? "on" : "off"} · ${(s.now / 1000).toFixed(1)} s virtual time${s.running ? "" : " (paused)"}${
    s.tone ? ` · ♪ ${s.tone.freq} Hz` : ""
  }`;
  const bat = s.battery;
  if (document.activeElement !== $("battery")) $("battery").value = String(bat.volts);
  $("usb").checked = bat.usb;
  $("battery-text").textContent =
    `${bat.volts.toFixed(2)} V${bat.level !== null ? ` · ${Math.round(bat.level * 100)} %` : ""}${bat.usb ? " · USB" : ""}`;
  const fill = $("battery-fill");
  fill.style.width = `${Math.round((bat.level ?? 1) * 100)}%`;
  fill.classList.toggle("low", layout.battery !== null && bat.volts <= layout.battery.lowV);

  for (const [id, on] of [
    ["shield", s.view.shield],
    ["labels", s.view.labels],
    ["sound", !s.view.muted],
  ])
    $(id).setAttribute("aria-pressed", String(on));
  const cover = $("shield-cover");
  if (cover)
    cover.querySelector(".shield-hint").textContent = s.view.shield
      ? "open · click or press Space to close"
      : "click or press Space to open";

  paintWatch(s.watch);

  const errors = $("errors");
  errors.hidden = s.errors.length === 0;
  errors.textContent = s.errors.join("\n");
  const con = $("console");
  con.textContent = s.console.join("\n") || "(nothing printed)";
  con.scrollTop = con.scrollHeight;
  if (s.view.muted) audio.silence();
}

/** Watching the unit play: the buttons, the latest line, the recent ones (newest last). */
function paintWatch(w) {
  $("watch").disabled = !!(w && w.running);
  $("watch").textContent = w && !w.running ? "Watch again" : "Watch the unit play";
  $("watch-stop").disabled = !(w && w.running);
  if (!w) return;
  const status = $("watch-status");
  status.textContent = (w.running ? "▶ " : "■ ") + w.line;
  status.classList.toggle("running", w.running);
  const log = $("watch-log");
  log.hidden = w.log.length === 0;
  const text = w.log.join("\n");
  if (log.dataset.text === text) return;
  log.dataset.text = text;
  log.replaceChildren(
    ...w.log.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }),
  );
  log.scrollTop = log.scrollHeight;
}

/** The Brain Flip game whose cards are on the pad ("game/grid"), or "" when none are. */
let cardsShown = "";

/**
 * Brain Flip's cards: while its screen shows, the server names the picture on each card of the grid
 * (s.flip). Each card's key keeps its LED: cyan around a card in play; a card whose LED is off
 * (guessed wrong) is shown out; the picked card blinks green at the end of a round.
 */
function paintCards(s) {
  const flip = s.flip && pictures ? s.flip : null;
  unitEl.classList.toggle("flip", flip !== null);
  const pad = ledEls.pad || [];
  const shown = flip ? `${flip.game}/${flip.grid}` : "";
  if (shown !== cardsShown) {
    cardsShown = shown;
    for (const el of pad) {
      if (!el) continue;
      el.classList.remove("card", "out", "picked");
      delete el.dataset.card;
      el.title = el.dataset.title;
      el.removeAttribute("aria-label");
      delete el.dataset.picture;
    }
    if (flip)
      flip.pictures.forEach((id, c) => {
        const el = pad[Math.floor(c / flip.grid) * 6 + (c % flip.grid)];
        const pic = pictures[id];
        if (!el || !pic) return;
        el.classList.add("card");
        el.dataset.picture = String(id);
        el.dataset.card = String(c);
        el.dataset.name = pic.name;
        el.querySelector(".card-face img").src = pic.url;
        el.querySelector(".card-name").textContent = pic.name;
      });
  }
  $("flip-help").hidden = flip === null;
  if (!flip) return;
  $("flip-game").textContent =
    `Game ${flip.game}: ${flip.grid * flip.grid} cards drawn at random from the ${Object.keys(pictures).length} pictures, fixed until the next game.`;
  const dark = !s.on || !s.ledsPowered; // asleep: every LED is off, no card is out
  for (const el of pad) {
    if (!el || !el.classList.contains("card")) continue;
    // The Master's card blinks green at the end of a round: between blinks it is not out.
    const picked = Number(el.dataset.card) === flip.picked;
    const out = !dark && !picked && !el.classList.contains("lit");
    el.classList.toggle("out", out);
    el.classList.toggle("picked", picked);
    const label = `${el.dataset.name}${out ? " (out)" : picked ? " (the Master's card)" : ""}`;
    if (el.getAttribute("aria-label") !== label) {
      el.setAttribute("aria-label", label);
      el.title = `${label} · ${el.dataset.key}`;
    }
  }
}

// ---------------------------------------------------------------- sound

/** The buzzer, as a square wave at the tone's frequency; notes keep their virtual-time spacing. */
const audio = {
  ctx: null,
  osc: null,
  gain: null,
  offset: null,
  unlock() {
    if (this.ctx) {
      if (this.ctx.state === "suspended") this.ctx.resume();
      return;
    }
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    this.ctx = new AC();
    this.osc = this.ctx.createOscillator();
    this.osc.type = "square";
    this.gain = this.ctx.createGain();
    this.gain.gain.value = 0;
    this.osc.connect(this.gain).connect(this.ctx.destination);
    this.osc.start();
  },
  play(now, tones) {
    if (!this.ctx || !lastState || lastState.view.muted) return;
    const t = this.ctx.currentTime;
    // Virtual ms -> audio seconds; re-anchored when the stream falls behind or runs far ahead.
    const guess = t + 0.03 - now / 1000;
    if (this.offset === null || this.offset < guess - 0.05 || this.offset > guess + 0.25) this.offset = guess;
    for (const tone of tones) {
      const when = Math.max(t, tone.at / 1000 + this.offset);
      if (tone.freq > 0) this.osc.frequency.setValueAtTime(tone.freq, when);
      this.gain.gain.setTargetAtTime(tone.freq > 0 ? 0.05 : 0, when, 0.002);
    }
  },
  silence() {
    if (this.ctx) this.gain.gain.setTargetAtTime(0, this.ctx.currentTime, 0.002);
  },
};

// ---------------------------------------------------------------- start

let layoutText = "";
/** Fetches the unit's layout and (re)draws the unit when it differs (the server may restart with another profile). */
async function loadLayout() {
  const text = await (await fetch("api/layout")).text();
  if (text === layoutText) return;
  layoutText = text;
  layout = JSON.parse(text);
  build();
}

/** Brain Flip's pictures, once: each SVG becomes an image URL for the cards. */
async function loadPictures() {
  const list = await (await fetch("api/pictures")).json();
  pictures = {};
  for (const p of list) pictures[p.id] = { name: p.name, url: URL.createObjectURL(new Blob([p.svg], { type: "image/svg+xml" })) };
  if (lastState) paint(lastState);
}

async function start() {
  await loadLayout();
  loadPictures().catch((e) => console.error(e));
  const events = new EventSource("api/events");
  events.addEventListener("open", () => loadLayout().catch(() => showOffline(true)));
  events.addEventListener("state", (e) => {
    showOffline(false);
    paint(JSON.parse(e.data));
  });
  events.addEventListener("tone", (e) => {
    const d = JSON.parse(e.data);
    audio.play(d.now, d.tones);
  });
  events.addEventListener("error", () => showOffline(true));
  document.addEventListener("pointerdown", () => audio.unlock(), { once: true });
}

start().catch((e) => {
  showOffline(true);
  console.error(e);
});
