/**
 * The board prelude for the real Espruino interpreter (the Linux build in $BRAINBOARD_ESPRUINO_DIR):
 * the same board model as the simulator's (sim/board/circuit.ts, sim/board/board.ts), written in Espruino's own
 * dialect and generated from the hardware profile. It runs before the firmware, on the interpreter,
 * and replaces what a Pico has natively and the Linux build lacks:
 *
 * - the profile's pins (plain numbers), pinMode, digitalWrite and digitalRead on pins and pin arrays
 *   (the last pin of an array is bit 0), setWatch and clearWatch (callbacks from the idle loop, with
 *   the edge's time), and the key matrices: contacts between row and column lines, with diodes (or
 *   without: closed contacts join lines into one net), pull-ups, and contact bounce;
 * - neopixel.write (the frame is kept, and reported to Node when asked), the LED supply switch, the
 *   buzzer's PWM, the battery on its ADC pin, deep sleep, the watchdog and the console lock (recorded
 *   and reported rather than done: the host drives the unit through the console);
 * - when run from RAM, a Storage in front of the real one that holds the solver tables in RAM, as a
 *   Pico's memory-mapped flash would (the Linux build reads its flash file byte by byte), and whose writes
 *   (a save) are timed as the board's own work, apart from the firmware's.
 *
 * It also measures, with the interpreter's own clock, every task the event loop runs (timers and
 * watch callbacks): how long each blocked the loop, and for the one that wrote LEDs, how long from its
 * start to the write. Time spent in the model of what a Pico does natively (pin functions, watches,
 * the ADC and PWM: JavaScript here, C on a board) and in writing reports is not counted in those
 * figures; the model's share is reported apart (stats().hw). The host (sim/espruino/engine.ts) reads these from the report lines.
 *
 * Report lines go to the console, each starting with REPORT_MARK; everything else the console prints
 * is the firmware's. Commands (`__bb.x(...)` lines) come in over a TCP connection the prelude opens to the
 * host on the loopback address (`link`), never on the console's input: the Linux build reads its standard
 * input on a second thread that appends each byte to the interpreter's event queue with no lock against the
 * main thread taking events out (targets/linux/jshardware.c jshInputThread, src/jsdevices.c
 * jshPushIOCharEvents: jshInterruptOff() does nothing there), and now and then, under load, the queue's
 * indices got out of step: bytes lost, or `ASSERT(len <= 64) FAILED AT src/jsdevices.c:601` and a dump of
 * every variable before it exits. The socket is read by the main thread alone.
 *
 *   F <n> <busy0> <busy> <toWrite> <scan> <base64 GRB>   a frame (n-th write), see FrameReport
 *   T <freq>              the buzzer (0 = silent)      P <0|1>   LED supply
 *   S <0|1>               deep sleep allowed           L <0|1>   console locked
 *   W <seconds>           watchdog enabled              R <why>   the firmware asked to restart
 *   K <key> up            a tap is over: the scanner has seen the key pressed, then released
 *   Y <n>                 reply to sync(n): every key move sent before it has been taken
 *   M <json>              measurements (stats())
 *   B <usage>             end of the prelude (JsVars in use then)
 *   V <name> <base64|->   a mirrored Storage file's content after a change (- when erased), and at boot
 */
import type { Profile } from "../../hardware/profile.ts";
import { unitProfile, type UnitProfile } from "../../hardware/unit-profile.ts";

export const REPORT_MARK = "\x01BB ";

export interface PreludeOptions {
  /** Key contact bounce, ms (0 = clean edges). */
  bounceMs: number;
  /** Seeds the bounce pattern. */
  seed: number;
  /** Solver tables to hold in a RAM Storage in front of the real one (run from RAM); none when flashed. */
  tables?: { name: string; bytes: Uint8Array }[];
  /** Report every LED write as it happens (views and tests); else only when asked (benchmarks). */
  reportFrames: boolean;
  /** Battery volts and USB at power-on. */
  batteryVolts: number;
  usb: boolean;
  /** Run from RAM (one file): load() then asks the host to restart the process, as there is no .bootcde. */
  ram: boolean;
  /** Read JsVars in use (with a garbage collection) after every task: slow, for the memory run only. */
  trackMemory?: boolean;
  /** How long a tap holds its key at least (ms); the key is also held until the scanner has seen it. */
  tapHoldMs: number;
  /**
   * Where the host listens for the prelude's command link (127.0.0.1), and the token the prelude sends first; none: no
   * commands (a file that runs by itself, as bench:micro's).
   */
  link?: { port: number; token: string };
  /** Storage files whose content is reported at boot and after every change (the page reads the saves). */
  mirror?: string[];
}

/** Pin names the profile uses, in a fixed order: each becomes a global holding its index. */
export function profilePins(unit: UnitProfile): string[] {
  const p = unit.profile;
  const pins = [p.leds.pin, p.leds.powerPin, p.buzzer?.pin, p.battery?.pin, ...p.keys.rowPins, ...unit.columnPins];
  const out: string[] = [];
  for (const x of pins) if (x && !out.includes(x)) out.push(x);
  return out;
}

function latin1Base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** The prelude's source, for a profile (compiled: hardware/unit-profile.ts). Plain ES5 plus what Espruino 2v29 runs (docs/espruino.md). */
export function preludeSource(profile: Profile | UnitProfile, o: PreludeOptions): string {
  const unit = unitProfile(profile);
  const p = unit.profile;
  const pins = profilePins(unit);
  const pinIndex = (name: string | undefined) => (name ? pins.indexOf(name) : -1);
  const keys = unit.keys;
  const cols = unit.columnPins;
  const nRows = p.keys.rowPins.length;
  const nCols = cols.length;
  if (nCols > 30 || nRows > 30) throw new Error(`profile ${p.id}: the prelude handles up to 30 row and 30 column lines`);
  const seg = unit.segments;
  const tables = o.tables ?? [];
  const L: string[] = [];
  L.push(`// Brainboard board prelude for ${p.id} (generated by sim/espruino/prelude.ts; do not edit)`);
  L.push(`var ${pins.map((n, i) => `${n}=${i}`).join(",")};`);
  L.push(`var __bb=(function(){`);
  L.push(`var MARK=${JSON.stringify(REPORT_MARK)},NP=${pins.length},NR=${nRows},NC=${nCols},DIODES=${p.keys.diodes ? 1 : 0};`);
  L.push(
    `var ROWPIN=new Uint8Array(${JSON.stringify(p.keys.rowPins.map(pinIndex))}),COLPIN=new Uint8Array(${JSON.stringify(cols.map(pinIndex))});`,
  );
  L.push(
    `var KROW=new Uint8Array(${JSON.stringify(keys.map((k) => k.rowLine))}),KCOL=new Uint8Array(${JSON.stringify(keys.map((k) => k.colLine))});`,
  );
  L.push(
    `var LEDPIN=${pinIndex(p.leds.pin)},PWRPIN=${pinIndex(p.leds.powerPin)},PWRON=${p.leds.powerOnLevel ?? 1},BUZPIN=${pinIndex(p.buzzer?.pin)},BATPIN=${pinIndex(p.battery?.pin)},BATRATIO=${p.battery?.dividerRatio ?? 1},BATSCALE=${p.battery?.adcFullScaleV ?? 3.3};`,
  );
  L.push(
    `var BOUNCE=${o.bounceMs},HOLD=${o.tapHoldMs},REPORT=${o.reportFrames ? 1 : 0},RAM=${tables.length || o.ram ? 1 : 0},TRACKMEM=${o.trackMemory ? 1 : 0},LEDS=${unit.ledCount};`,
  );
  L.push(`var SECRET0=${seg.secret.start},SECRETN=${seg.secret.count};`);
  if (o.link && (!(Number.isInteger(o.link.port) && o.link.port > 0 && o.link.port < 65536) || !/^[0-9a-f]+$/.test(o.link.token)))
    throw new Error("the prelude's link needs a port and a hex token");
  L.push(`var LINKPORT=${o.link ? o.link.port : 0},LINKTOKEN="${o.link ? o.link.token : ""}";`);
  const mirror = o.mirror ?? [];
  if (mirror.some((n) => !/^[\w.]{1,28}$/.test(n))) throw new Error("mirrored Storage names are letters, digits, _ and .");
  L.push(`var MIRROR=${JSON.stringify(mirror)};`);
  L.push(PRELUDE_BODY);
  L.push(`bat(${o.batteryVolts},${o.usb ? 1 : 0});seed=${(o.seed >>> 0) % 2147483647 || 1};`);
  if (tables.length) {
    L.push(`var T={};`);
    for (const t of tables) L.push(`T[${JSON.stringify(t.name)}]=atob(${JSON.stringify(latin1Base64(t.bytes))});`);
    L.push(STORAGE_STUB);
  }
  if (mirror.length) L.push(STORAGE_MIRROR);
  L.push(`return api;})();`);
  L.push(`__bb.ready();`);
  return L.join("\n") + "\n";
}

/**
 * The model itself. Pin state: MODE per pin (0 input, 1 input_pullup, 2 input_pulldown, 3 output,
 * 4 opendrain, 5 analog...), OUT latch. Contacts: CLOSED[r] holds the closed contacts of row line r
 * as column bits (column c is bit NC-1-c, the order digitalRead of the column array gives).
 */
const PRELUDE_BODY = String.raw`
var MODES={"input":0,"input_pullup":1,"input_pulldown":2,"output":3,"opendrain":4,"opendrain_pullup":6,"af_output":3,"af_opendrain":4,"analog":5};
var MODE=new Uint8Array(NP),OUT=new Uint8Array(NP),MANUAL=new Uint8Array(NP);
var CLOSED=new Uint32Array(NR),contact=new Uint8Array(KROW.length);
var colLevel=0,rowLow=0,ALLC=NC>=31?-1:(1<<NC)-1;
var watches=[],nextWatch=1;
var oSetTimeout=setTimeout,oSetInterval=setInterval;
var frame=new Uint8Array(LEDS*3),frameN=0,ledPower=PWRPIN<0?1:0,tone=0,sleepOk=0,locked=0,wdog=0;
var batV=0,usb=0,seed=1;
var hwD=0,hwT=0,busy=0,taskStart=-1,taskScan=0,taskBusy0=0,stallMax=0,stallAt=0,stallWrote=0,taskFrame0=0,reportT=0,tasks=0,memPeak=0,memPeakAt=0;
// Key moves are made one at a time, in the order the host sent them (whatever key each is for), as a
// person's fingers would: the next move is made only once the last one has been taken, that is, its bounce
// is over, the scanner has read the new state in SEEN_NEEDED scans in a row (bounce resets the count; the
// firmware debounces over 3; a scan reading the key's row more than once counts once: SEENT, its task) and it has lasted its minimum time. When the event loop is slow the moves
// fall behind the host's commands, but never overtake each other: an OK is never pressed before the
// exact presses sent ahead of it have been taken. A move to the state the key is already in is no move.
// Q: pending moves [key, state, minMs, report]; ACTIVE: keys whose last move is not yet taken; LASTK: the
// key of the last move made; SYNCS: sync(n) calls waiting for every move to be taken.
var SEEN_NEEDED=4,SEEN=new Uint8Array(KROW.length),SEENT=new Float64Array(KROW.length),TARGET=new Uint8Array(KROW.length),MOVED=new Float64Array(KROW.length),MINMS=new Float64Array(KROW.length),BDONE=new Uint8Array(KROW.length);
var Q=[],ACTIVE=[],pumping=0,LASTK=-1,SYNCS=[];
function now(){return getTime()*1000;}
function report(s){var t=getTime();print(MARK+s);reportT+=getTime()-t;}
function rnd(){seed=(seed*48271)%2147483647;return seed/2147483647;}
function rowDrivenLow(r){var q=ROWPIN[r],m=MODE[q];return (m===3||m===4||m===6)&&!OUT[q];}
function resolve(){
  var low=0,rl=0,r;
  for(r=0;r<NR;r++)if(rowDrivenLow(r)){rl|=1<<r;low|=CLOSED[r];}
  if(!DIODES){var grew=1;while(grew){grew=0;for(r=0;r<NR;r++)if(!(rl&(1<<r))&&(CLOSED[r]&low)){rl|=1<<r;low|=CLOSED[r];grew=1;}}}
  rowLow=rl;
  var lv=0,c,q,m;
  for(c=0;c<NC;c++){q=COLPIN[c];m=MODE[q];
    var bit=1<<(NC-1-c);
    if(m===3||m===4||m===6){if(OUT[q]&&!(low&bit))lv|=bit;}
    else if(m===1&&!(low&bit))lv|=bit;}
  var was=colLevel;colLevel=lv;
  if(was!==lv&&watches.length)edges(was^lv);
}
function edges(changed){
  var t=getTime();
  for(var i=0;i<watches.length;i++){var w=watches[i];
    var bit=1<<(NC-1-w.col);if(!(changed&bit))continue;
    var st=(colLevel&bit)?true:false;
    if(w.edge>0&&!st)continue;if(w.edge<0&&st)continue;
    var e={state:st,time:t,lastTime:w.last};w.last=t;
    if(!w.repeat){watches.splice(i,1);i--;}
    oSetTimeout(run,0,w.fn,e);}
}
// (The task's clock starts after the prelude's own bookkeeping, and a write's is read first thing: five statements
// are about 0.5 ms of a Pico, which is no work of the firmware's.)
function run(fn,a){
  taskScan=0;taskBusy0=busy;taskFrame0=frameN;reportT=0;hwD=0;
  var t0=taskStart=getTime();
  try{fn(a);}finally{
  var d=(getTime()-t0-reportT)*1000;busy+=d;tasks++;
  if(d>stallMax){stallMax=d;stallAt=frameN;stallWrote=frameN!==taskFrame0?1:0;}
  taskStart=-1;
  if(TRACKMEM&&process.memory(false).usage>memPeak){var u=process.memory().usage;if(u>memPeak){memPeak=u;memPeakAt=frameN;}}}
}
function colOf(p){for(var c=0;c<NC;c++)if(COLPIN[c]===p)return c;return -1;}
function setPin(p,v){OUT[p]=v?1:0;if(!MANUAL[p]&&MODE[p]!==3&&MODE[p]!==4)MODE[p]=3;
  if(p===PWRPIN){var on=OUT[p]===PWRON?1:0;if(on!==ledPower){ledPower=on;report("P "+on);}}
  if(p===BUZPIN&&tone){tone=0;report("T 0");}}
global.pinMode=function(p,m){var x=MODES[m];if(x===undefined){MANUAL[p]=0;return;}MODE[p]=x;MANUAL[p]=1;if(x===6)OUT[p]=1;resolve();};
global.getPinMode=function(p){for(var k in MODES)if(MODES[k]===MODE[p])return k;};
global.digitalWrite=function(p,v){
  if(typeof p==="number"){setPin(p,v);resolve();return;}
  var n=p.length;if(v===true)v=-1;else if(v===false)v=0;
  for(var i=n-1;i>=0;i--){setPin(p[i],v&1);v>>=1;}
  if(n===NR&&p[0]===ROWPIN[0]&&taskStart>=0)taskScan=1;
  resolve();
};
global.digitalRead=function(p){
  if(typeof p==="number"){var c=colOf(p);if(c>=0)return (colLevel>>(NC-1-c))&1;return OUT[p];}
  if(p.length===NC&&p[0]===COLPIN[0]){
    for(var h=0;h<ACTIVE.length;h++){var hk=ACTIVE[h];if(rowLow&(1<<KROW[hk])){if(contact[hk]!==TARGET[hk])SEEN[hk]=0;else if(SEEN[hk]<255&&(taskStart<0||SEENT[hk]!==taskStart)){SEEN[hk]++;SEENT[hk]=taskStart;}}}
    return colLevel;}
  var v=0;for(var i=0;i<p.length;i++)v=(v<<1)|global.digitalRead(p[i]);return v;
};
global.setWatch=function(fn,p,o){
  var c=colOf(p);if(c<0)return undefined;
  if(typeof o!=="object")o={repeat:!!o};
  var id=nextWatch++;
  watches.push({id:id,fn:fn,col:c,repeat:!!o.repeat,edge:o.edge==="rising"?1:o.edge==="falling"?-1:0,last:getTime()});
  return id;
};
global.clearWatch=function(id){
  if(arguments.length===0){watches=[];return;}
  if(id===undefined)throw new Error("Invalid ID");
  for(var i=0;i<watches.length;i++)if(watches[i].id===id){watches.splice(i,1);return;}
};
// Pin functions, watches and neopixel.write are native on a Pico and JavaScript here: their time is kept
// out of the firmware's figures (counted in hwT, reported apart).
// The wrapper is lean, as a native call's own cost is small: the firmware pays for the call, the model's body
// is timed apart (a nested call is the outer one's; run() resets the depth should a model function throw).
function hw(f){return function(a,b,c){var t=getTime();hwD++;var r=f(a,b,c);if(!--hwD){t=getTime()-t;reportT+=t;hwT+=t;}return r;};}
["pinMode","digitalWrite","digitalRead","setWatch","analogRead","analogWrite"].forEach(function(k){global[k]=hw(global[k]);});
// The same for a function whose arguments must pass on as they came (clearWatch() with none clears every watch; Storage's
// write takes four), the time kept out even when it throws.
function hwAll(f){return function(){var t=getTime();hwD++;try{return f.apply(this,arguments);}finally{if(!--hwD){t=getTime()-t;reportT+=t;hwT+=t;}}};}
global.clearWatch=hwAll(global.clearWatch);
global.setTimeout=function(fn,ms){return oSetTimeout(run,ms,fn,arguments[2]);};
global.setInterval=function(fn,ms){return oSetInterval(run,ms,fn,arguments[2]);};
global.analogRead=function(p){
  if(p===BATPIN){var v=batV/BATRATIO/BATSCALE;if(v<0)v=0;if(v>4095/4096)v=4095/4096;return Math.floor(v*4096)/4096;}
  return (typeof p==="number"&&colOf(p)>=0)?global.digitalRead(p)*4095/4096:0;
};
global.analogWrite=function(p,d,o){
  if(p!==BUZPIN)return;var f=d>0?((o&&o.freq)||1000):0;OUT[p]=0;
  if(f!==tone){tone=f;report("T "+f);}
};
global.setDeepSleep=function(on){on=on?1:0;if(on!==sleepOk){sleepOk=on;report("S "+on);}};
E.getAnalogVRef=function(){return 3.3;};
E.enableWatchdog=function(s){wdog=s;report("W "+s);};
E.kickWatchdog=function(){};
E.lockConsole=function(){if(!locked){locked=1;report("L 1");}};
E.setPassword=function(pw){if(!pw&&locked){locked=0;report("L 0");}};
if(RAM)global.load=function(){report("R load");};
global.__bbNeopixel={write:function(p,d){
  var t=getTime();
  if(p!==LEDPIN)return;
  frame.set(d);frameN++;
  var tw=taskStart>=0?(t-taskStart-reportT)*1000:-1;
  if(REPORT)report("F "+frameN+" "+taskBusy0.toFixed(3)+" "+(busy+(taskStart>=0?(t-taskStart-reportT)*1000:0)).toFixed(3)+" "+tw.toFixed(3)+" "+taskScan+" "+btoa(E.toString(frame)));
}};
// A module's function runs in a scope of its own (no closure): it hands over a global.
Modules.addCached("neopixel",function(){module.exports=__bbNeopixel;});
// The contact chatters for BOUNCE ms after a move; BDONE[k] once it has settled (timers fire in the order they
// are due, so the last one runs after every other, however late a blocked event loop runs them).
function bounce(k,closedNow){
  BDONE[k]=BOUNCE?0:1;
  if(!BOUNCE)return;
  var n=2*(2+Math.floor(rnd()*3)),ts=[];
  for(var i=0;i<n;i++)ts.push((0.05+0.9*rnd())*BOUNCE);
  ts.sort(function(a,b){return a-b;});
  ts.forEach(function(t,i){oSetTimeout(setContact,t,k,i%2===0?!closedNow:closedNow);});
  oSetTimeout(function(){setContact(k,closedNow);BDONE[k]=1;},BOUNCE);
}
function setContact(k,c){
  c=c?1:0;if(contact[k]===c)return;contact[k]=c;
  var bit=1<<(NC-1-KCOL[k]);if(c)CLOSED[KROW[k]]|=bit;else CLOSED[KROW[k]]&=~bit;
  resolve();
}
function move(k,c){setContact(k,c);bounce(k,c);}
function settled(k){return ACTIVE.indexOf(k)<0||(BDONE[k]&&SEEN[k]>=SEEN_NEEDED&&now()-MOVED[k]>=MINMS[k]);}
function pump(){
  pumping=0;
  while(Q.length){var a=Q[0],k=a[0];
    if((LASTK>=0&&!settled(LASTK))||!settled(k))break;
    Q.shift();
    var ai=ACTIVE.indexOf(k);if(ai>=0)ACTIVE.splice(ai,1);
    if(a[3])report(a[3]);
    if(a[1]<0||TARGET[k]===a[1])continue;
    TARGET[k]=a[1];SEEN[k]=0;MOVED[k]=now();MINMS[k]=a[2];ACTIVE.push(k);LASTK=k;move(k,a[1]);}
  for(var i=ACTIVE.length-1;i>=0;i--)if(settled(ACTIVE[i]))ACTIVE.splice(i,1);
  if(!Q.length&&!ACTIVE.length)while(SYNCS.length)report("Y "+SYNCS.shift());
  else if(!pumping){pumping=1;oSetTimeout(pump,2);}
}
function queue(k,state,minMs,rep){Q.push([k,state,minMs,rep]);pump();}
function bat(v,u){batV=v;usb=u;}
var api={
  press:function(k){queue(k,1,0,"");},
  release:function(k){queue(k,0,BOUNCE+1,"");},
  // A tap: press, held at least h ms, release; "K k up" once the release has been seen.
  tap:function(k,h){queue(k,1,h===undefined?HOLD:h,"");queue(k,0,BOUNCE+1,"");queue(k,-1,0,"K "+k+" up");},
  bat:bat,
  // Answers once every key move sent before it has been taken (at once when none is pending).
  sync:function(n){SYNCS.push(n);pump();},
  frame:function(){report("F "+frameN+" "+busy.toFixed(3)+" "+busy.toFixed(3)+" -1 0 "+btoa(E.toString(frame)));},
  stats:function(reset){
    var m=process.memory();
    report("M "+JSON.stringify({hw:hwT*1000,busy:busy,tasks:tasks,stallMax:stallMax,stallAt:stallAt,stallWrote:stallWrote,usage:m.usage,total:m.total,memPeak:memPeak,memPeakAt:memPeakAt,frames:frameN}));
    if(reset){stallMax=0;memPeak=0;}
  },
  ready:function(){echo(0);if(LINKPORT)link();report("B "+process.memory().usage);if(MIRROR.length)mirrorAll();}
};
// The host's commands: one per line over a loopback TCP connection, each run as it arrives (a line that
// throws is reported as the console would, and the rest still run). The connection is the prelude's, made
// at every boot; the host takes the first one that sends its token.
function link(){
  var sock=require("net").connect({host:"127.0.0.1",port:LINKPORT},function(){sock.write(LINKTOKEN+"\n");}),buf="";
  sock.on("data",function(d){
    buf+=d;var i,line;
    while((i=buf.indexOf("\n"))>=0){line=buf.substr(0,i);buf=buf.substr(i+1);
      try{eval(line);}catch(e){print("Uncaught "+e);}}
  });
  sock.on("error",function(e){print("ERROR: the host link failed: "+JSON.stringify(e));});
}
`;

/** A Storage in front of the real one, holding the solver tables in RAM (run from RAM only). */
const STORAGE_STUB = String.raw`
var RS=require("Storage"),ST={};
  ["readJSON","readArrayBuffer","write","writeJSON","erase","eraseAll","hash","compact","debug","getFree","getStats","optimise","open"].forEach(function(k){if(RS[k])ST[k]=RS[k];});
  ST.read=function(n,o,l){var t=T[n];if(t===undefined)return RS.read(n,o,l);if(o===undefined&&l===undefined)return t;return t.substr(o||0,l===undefined?t.length:l);};
  ST.list=function(r,f){var a=RS.list(r,f);for(var n in T)if(a.indexOf(n)<0)a.push(n);return a;};
  // Writing is native on a Pico too, over memory-mapped flash; the Linux build opens, reads and closes its flash file for
  // every file header it passes (each save adds one), so its time here is the host's file system's: kept out, as a pin's.
  ["write","writeJSON","erase","compact"].forEach(function(k){if(ST[k])ST[k]=hwAll(ST[k]);});
global.__bbStorage=ST;
Modules.addCached("Storage",function(){module.exports=__bbStorage;});
`;

/**
 * Storage in front of the module the firmware gets (the RAM stub's or the real one): every write or erase of
 * a MIRROR file is reported with the file's content (its time kept out of the figures, as a report's is).
 */
const STORAGE_MIRROR = String.raw`
var SM=require("Storage"),SW={};
["read","list","readJSON","readArrayBuffer","hash","debug","getFree","getStats","open"].forEach(function(k){if(SM[k])SW[k]=SM[k];});
function mirror(n){if(MIRROR.indexOf(n)<0)return;var t=getTime(),d=SM.read(n);print(MARK+"V "+n+" "+(d===undefined?"-":btoa(d)));reportT+=getTime()-t;}
function mirrorAll(){MIRROR.forEach(mirror);}
SW.write=function(n,d,o,s){var r=SM.write(n,d,o,s);mirror(n);return r;};
SW.writeJSON=function(n,d){var r=SM.writeJSON(n,d);mirror(n);return r;};
SW.erase=function(n){var r=SM.erase(n);mirror(n);return r;};
["eraseAll","compact","optimise"].forEach(function(k){var f=SM[k];if(f)SW[k]=function(a){var r=f(a);mirrorAll();return r;};});
global.__bbStorageM=SW;
Modules.addCached("Storage",function(){module.exports=__bbStorageM;});
`;
