// The browser side of `fray serve`: a lobby that starts matches, and a match page that draws
// the view the server sends for this link's seat (or for a spectator) and answers decisions.
// It knows no game: it reads the common fields of a view (map, units, decision, log, score)
// and shows any other field as text.

type Pos = [number, number];
interface Option { id: string; label: string; square?: Pos }
interface Decision { seat: string; unit?: string; kind: string; prompt: string; options: Option[] }
interface Status { name: string; amount?: number; source?: string; duration: string }
interface Unit {
  name: string; team: string; at: Pos | null; size: number; hp: number; max_hp: number;
  statuses: string[]; status_details: Status[]; powers?: string[]; kind?: string; unseen?: boolean;
  [k: string]: unknown;
}
interface View {
  system: string; round: number; turn: string | null; map: string[]; units: Record<string, Unit>;
  score: Record<string, number>; decision: Decision | null; log: string[];
  outcome: { winner: string | null; summary: string } | null;
  legend?: Record<string, string>; strikes?: Record<string, number>; order?: string[];
  [k: string]: unknown;
}
// A die roll as the server reads it from the journal the seat may see (hub.rs rolls_of).
interface Roll {
  text: string; kind: string; who: string | null; target: string | null; what: string | null;
  faces: number[]; kept: boolean[]; bonus: number | null; result: number | null; outcome: string | null;
}
interface Message {
  rolls?: Roll[];
  type: string; match: string; system: string; title: string; version: number; revision: number; can_undo: boolean;
  you: { seat: number | null; name: string }; seats: { name: string; kind: string; bot?: string }[];
  waiting: string | null; view: View; notes: string[]; log: string[]; steps?: number;
  error?: string; status?: number;
}
interface Entry { id: string; name: string; kind: string; aliases?: string[]; text: string }

const $ = <T extends HTMLElement>(sel: string) => document.querySelector(sel) as T;
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
const SVG = "http://www.w3.org/2000/svg";
function svg(tag: string, attrs: Record<string, string | number> = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

async function api(path: string, body?: unknown): Promise<any> {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const text = await r.text();
  let json: any;
  try { json = JSON.parse(text); } catch { json = { error: text }; }
  if (!r.ok) throw new Error(json.error ?? `HTTP ${r.status}`);
  return json;
}

// ---------------------------------------------------------------- lobby

async function lobby() {
  const main = $("#main");
  main.innerHTML = "";
  main.append(el("h1", {}, "Fray: start a match"));
  const data = await api("/api/systems");
  const systems: any[] = data.systems.filter((s: any) => s.playable === null);
  const form = el("form", { id: "lobby", "aria-label": "New match" });
  const field = (label: string, input: HTMLElement) => {
    const id = input.id;
    const l = el("label", { for: id }, label);
    const row = el("div", { class: "row" });
    row.append(l, input);
    return row;
  };
  const sys = el("select", { id: "system", name: "system" }) as HTMLSelectElement;
  for (const s of systems) sys.append(el("option", { value: s.id }, s.title));
  const map = el("select", { id: "map", name: "map" }) as HTMLSelectElement;
  const seed = el("input", { id: "seed", name: "seed", type: "number", min: "0", placeholder: "random" }) as HTMLInputElement;
  const seatsBox = el("fieldset", { id: "seats" });
  const optionsBox = el("input", { id: "options", name: "options", placeholder: "KEY=VALUE, KEY=VALUE" }) as HTMLInputElement;
  form.append(field("System", sys), field("Map", map), seatsBox, field("Table options", optionsBox), field("Seed", seed));
  const go = el("button", { type: "submit", id: "create" }, "Create match");
  form.append(go);
  const out = el("section", { id: "links", "aria-live": "polite" });
  const err = el("p", { id: "lobby-error", role: "alert", class: "error" });
  main.append(form, err, out);

  const fill = () => {
    const s = systems.find((x) => x.id === sys.value);
    map.innerHTML = "";
    map.append(el("option", { value: "" }, "default"));
    for (const m of s.maps) map.append(el("option", { value: m }, m));
    seatsBox.innerHTML = "";
    seatsBox.append(el("legend", {}, "Seats"));
    s.seats.forEach((name: string, i: number) => {
      const row = el("div", { class: "row seat" });
      const who = el("select", { id: `seat-${name}`, "data-seat": name }) as HTMLSelectElement;
      who.append(el("option", { value: "person" }, "person"));
      for (const b of data.bots) who.append(el("option", { value: `bot:${b}` }, `bot: ${b}`));
      if (!s.bots) who.disabled = true;
      who.value = i === 0 || !s.bots ? "person" : "bot:greedy";
      row.append(el("label", { for: who.id }, `${name}`), who);
      if (s.teams.length && i < 2) {
        const team = el("select", { id: `team-${name}`, "data-team": name }) as HTMLSelectElement;
        team.append(el("option", { value: "" }, "default team"));
        for (const t of s.teams) team.append(el("option", { value: t }, t));
        const file = el("input", { type: "file", id: `teamfile-${name}`, accept: ".toml,text/plain" });
        row.append(el("label", { for: team.id, class: "sr" }, `${name} team`), team,
          el("label", { for: file.id }, "or a team file"), file);
      }
      seatsBox.append(row);
    });
  };
  sys.addEventListener("change", fill);
  fill();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const s = systems.find((x) => x.id === sys.value);
    const seats = [];
    const teams: unknown[] = [];
    for (const name of s.seats as string[]) {
      const who = ($(`#seat-${name}`) as HTMLSelectElement).value;
      seats.push(who === "person" ? { kind: "person" } : { kind: "bot", bot: who.slice(4) });
      const team = document.getElementById(`team-${name}`) as HTMLSelectElement | null;
      const file = document.getElementById(`teamfile-${name}`) as HTMLInputElement | null;
      if (file?.files?.length) teams.push({ path: file.files[0].name, text: await file.files[0].text() });
      else if (team?.value) teams.push(team.value);
    }
    const body: any = { system: s.id, seats };
    if (teams.length) body.teams = teams;
    if (map.value) body.map = map.value;
    if (seed.value) body.seed = Number(seed.value);
    const opts = optionsBox.value.split(",").map((x) => x.trim()).filter(Boolean);
    if (opts.length) body.options = opts;
    try {
      const m = await api("/api/matches", body);
      out.innerHTML = "";
      out.append(el("h2", {}, `Match ${m.match} (seed ${m.seed})`));
      const list = el("ul");
      for (const seat of m.seats) {
        const li = el("li");
        if (seat.kind === "person") {
          const a = el("a", { href: seat.link, class: "seat-link", "data-seat": seat.name }, `Play ${seat.name}`);
          li.append(a, document.createTextNode(` — send this link to the person at ${seat.name}: ${location.origin}${seat.link}`));
        } else li.textContent = `${seat.name}: bot (${seat.bot})`;
        list.append(li);
      }
      const li = el("li");
      li.append(el("a", { href: m.spectator.link, class: "spectator-link" }, "Watch"),
        document.createTextNode(` — spectators: ${location.origin}${m.spectator.link}`));
      list.append(li);
      out.append(list);
    } catch (e) {
      err.textContent = (e as Error).message;
    }
  });
}

// ---------------------------------------------------------------- match page

const SIDE = ["#c0392b", "#2471a3", "#7d8c2e", "#8e44ad", "#d68910"];
const TERRAIN: Record<string, string> = {
  "#": "#4a4a4a", ".": "#f4f1e8", "~": "#c9dfc1", "!": "#f1b0a0", "F": "#8d8d8d", "l": "#c8c3b5",
  "o": "#dfe3ea", "D": "#d9cfe6", "X": "#b497d6", "1": "#f5c6c0", "2": "#c0d6f5",
};
// The side of a square in pixels: larger on small maps, so a 12-square encounter is not a stamp.
let CELL = 32;

class MatchPage {
  token: string;
  msg: Message | null = null;
  log: string[] = [];
  rules: Entry[] | null = null;
  sideColour = new Map<string, string>();
  ws: WebSocket | null = null;
  replayAt: number | null = null;
  // The next message is the first on a new connection: taken whatever its revision (a
  // restarted server counts revisions from 1 again).
  fresh = true;

  constructor(token: string) { this.token = token; }

  async start() {
    const main = $("#main");
    main.innerHTML = `
      <header><h1 id="title">Fray</h1><p id="who"></p><p id="status" aria-live="polite"></p></header>
      <div class="layout">
        <div class="board-wrap"><svg id="board" role="group" aria-label="The board: units, and the squares and targets you may pick"></svg></div>
        <aside>
          <section aria-labelledby="dh"><h2 id="dh">Decision</h2><p id="prompt"></p>
            <div id="options" role="group" aria-label="Options"></div>
            <p id="error" role="alert" class="error"></p></section>
          <section aria-labelledby="sh"><h2 id="sh">Score and turn</h2><div id="info"></div></section>
          <section aria-labelledby="dih"><h2 id="dih">Dice</h2>
            <ol id="dice" role="log" aria-live="polite" aria-relevant="additions" aria-label="Dice as they are rolled, newest first"></ol></section>
          <section aria-labelledby="logh"><h2 id="logh">Log</h2><ol id="log" aria-live="polite"></ol></section>
          <section aria-labelledby="uh"><h2 id="uh">Units</h2><ul id="units"></ul></section>
          <section aria-labelledby="lh"><h2 id="lh">Look-up</h2>
            <form id="lookup-form"><label for="lookup-q">Look up a rule, status or power</label>
            <input id="lookup-q" name="q"><button type="submit">Look up</button></form>
            <div id="lookup" aria-live="polite"></div></section>
          <section aria-labelledby="rh"><h2 id="rh">Replay</h2>
            <button id="step-back" type="button">Step back</button>
            <button id="step-fwd" type="button">Step forward</button>
            <button id="step-live" type="button">Live</button> <span id="step-at"></span></section>
        </aside>
      </div>`;
    $("#lookup-form").addEventListener("submit", (e) => { e.preventDefault(); this.lookup(($("#lookup-q") as HTMLInputElement).value); });
    $("#step-back").addEventListener("click", () => this.step(-1));
    $("#step-fwd").addEventListener("click", () => this.step(1));
    $("#step-live").addEventListener("click", () => { this.replayAt = null; if (this.msg) this.render(this.msg); });
    document.addEventListener("keydown", (e) => {
      if ((e.target as HTMLElement).tagName === "INPUT") return;
      const n = Number(e.key);
      if (n >= 1 && n <= 9) {
        // The option numbered n (the Undo button has no number).
        const b = document.querySelectorAll<HTMLButtonElement>("#options button[data-option]")[n - 1];
        b?.click();
      }
      if (e.key.startsWith("Arrow") && this.boardStep(e.key)) e.preventDefault();
    });
    try {
      this.show(await api(`/api/play/${this.token}`));
    } catch (e) {
      $("#status").textContent = (e as Error).message;
      return;
    }
    this.connect();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/api/play/${this.token}/ws`);
    this.ws = ws;
    this.fresh = true;
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data) as Message;
      if (m.type === "update") this.show(m);
      else if (m.type === "error") $("#error").textContent = m.error ?? "refused";
    };
    ws.onopen = () => { $("#status").dataset.connected = "yes"; };
    ws.onclose = () => {
      $("#status").dataset.connected = "no";
      $("#status").textContent = "connection lost; reconnecting…";
      setTimeout(() => this.connect(), 1000);
    };
  }

  show(m: Message) {
    const first = this.fresh;
    this.fresh = false;
    if (!first && this.msg && m.revision <= this.msg.revision) return;
    // The dice of this change go on top of the tray (an undo or a reconnect rolls none).
    if (m.rolls?.length && (first || !this.msg || m.version > this.msg.version)) this.dice(m.rolls);
    if (!this.msg || first || m.version < this.msg.version) this.log = [...m.view.log];
    else if (m.version > this.msg.version) this.log.push(...m.log);
    this.log = this.log.slice(-400);
    this.msg = m;
    if (this.replayAt === null) this.render(m);
  }

  async step(d: number) {
    if (!this.msg) return;
    const at = Math.max(0, Math.min(this.msg.version, (this.replayAt ?? this.msg.version) + d));
    this.replayAt = at;
    const m = await api(`/api/play/${this.token}/step/${at}`);
    this.render(m as Message);
  }

  // The dice tray: the rolls of the latest change that rolled any, newest first, above the few
  // before them (dimmed). Items are added, never redrawn, so a screen reader reads only the new.
  dice(rolls: Roll[]) {
    const tray = $("#dice");
    for (const old of Array.from(tray.children)) old.classList.remove("latest");
    for (const r of [...rolls].reverse()) {
      const li = el("li", { class: "roll latest", title: r.text });
      const who = r.who ?? "someone";
      const kind = r.kind || "a roll";
      const head = `${who}: ${kind}${r.target ? ` against ${r.target}` : ""}${r.what ? ` (${r.what})` : ""}`;
      li.append(el("span", { class: "roll-head" }, head));
      const faces = el("span", { class: "faces" });
      r.faces.forEach((f, i) => {
        const kept = r.kept[i] !== false;
        faces.append(el("span", { class: kept ? "die" : "die dropped", "aria-label": `${f}${kept ? "" : " dropped"}` }, String(f)));
      });
      if (r.faces.length) li.append(faces);
      if (r.bonus) li.append(el("span", { class: "roll-bonus" }, ` ${r.bonus > 0 ? "+" : "−"}${Math.abs(r.bonus)}`));
      if (r.result !== null) li.append(el("span", { class: "roll-result" }, ` → ${r.result}`));
      if (r.outcome) li.append(el("span", { class: "roll-outcome" }, `, ${r.outcome}`));
      li.append(el("span", { class: "sr" }, `. ${r.text}`));
      tray.prepend(li);
    }
    while (tray.children.length > 8) tray.lastElementChild!.remove();
  }

  colour(team: string) {
    if (!this.sideColour.has(team)) {
      const seats = this.msg?.seats.map((s) => s.name) ?? [];
      const i = seats.indexOf(team);
      this.sideColour.set(team, SIDE[(i >= 0 ? i : this.sideColour.size) % SIDE.length]);
    }
    return this.sideColour.get(team)!;
  }

  mine(m: Message) {
    return m.you.seat !== null && m.waiting === m.you.name && !!m.view.decision?.options.length && this.replayAt === null;
  }

  async undo() {
    $("#error").textContent = "";
    try {
      this.show(await api(`/api/play/${this.token}/undo`, {}));
    } catch (e) {
      $("#error").textContent = (e as Error).message;
    }
  }

  async choose(id: string) {
    $("#error").textContent = "";
    try {
      this.show(await api(`/api/play/${this.token}`, { choose: id }));
    } catch (e) {
      $("#error").textContent = (e as Error).message;
    }
  }

  render(m: Message) {
    const v = m.view;
    document.title = `Fray — ${m.title}`;
    $("#title").textContent = m.title;
    $("#who").textContent = m.you.seat === null ? "You are watching." : `You play ${m.you.name}.`;
    const replay = this.replayAt !== null ? ` Replay: step ${this.replayAt} of ${m.steps ?? m.version}.` : "";
    $("#status").textContent = (v.outcome ? v.outcome.summary
      : m.waiting ? (m.waiting === m.you.name ? "Your decision." : `Waiting for ${m.waiting}.`) : "") + replay;
    if (this.replayAt === null) $("#status").dataset.version = String(m.version);
    $("#step-at").textContent = this.replayAt === null ? `live (${m.version} inputs)` : `step ${this.replayAt}`;
    this.board(m);
    this.decision(m);
    this.info(v);
    this.units(v);
    const log = $("#log");
    log.innerHTML = "";
    for (const line of (this.replayAt === null ? this.log : v.log).slice(-120)) log.append(el("li", {}, line));
    log.scrollTop = log.scrollHeight;
  }

  board(m: Message) {
    const v = m.view;
    const b = $("#board") as unknown as SVGSVGElement;
    b.innerHTML = "";
    const rows = v.map.length, cols = Math.max(0, ...v.map.map((r) => [...r].length));
    // As wide as the window allows (a tablet held upright shows the whole board), at most 760px.
    const room = Math.min(760, Math.max(320, window.innerWidth - 40));
    CELL = Math.max(24, Math.min(64, Math.floor(room / Math.max(1, cols))));
    b.setAttribute("viewBox", `0 0 ${cols * CELL} ${rows * CELL}`);
    b.setAttribute("width", String(cols * CELL));
    b.setAttribute("height", String(rows * CELL));
    const legend = v.legend ?? {};
    v.map.forEach((row, y) => [...row].forEach((ch, x) => {
      const r = svg("rect", { x: x * CELL, y: y * CELL, width: CELL, height: CELL, class: "sq",
        fill: TERRAIN[ch] ?? (/[A-Z]/.test(ch) ? "#f7e7a8" : "#eeeeee") });
      const t = svg("title");
      t.textContent = `(${x},${y}) ${legend[ch] ?? ch}`;
      r.append(t);
      b.append(r);
      if (ch !== "." && ch !== "#" && !TERRAIN[ch]) {
        const g = svg("text", { x: x * CELL + CELL / 2, y: y * CELL + CELL * 0.68, class: "terrain-glyph" });
        g.textContent = ch;
        b.append(g);
      }
    }));
    // Whatever else the view places on squares (orbs, pedestals, zones...): a small marker each.
    const common = new Set(["system", "round", "turn", "map", "units", "score", "decision", "log", "outcome", "legend", "order", "strikes"]);
    for (const [key, val] of Object.entries(v)) {
      if (common.has(key) || !val || typeof val !== "object") continue;
      const items: [string, any][] = Array.isArray(val) ? val.map((x, i) => [String(i), x]) : Object.entries(val as object);
      for (const [id, item] of items) {
        const at = item && typeof item === "object" ? (item as any).at : null;
        if (!Array.isArray(at) || at.length !== 2 || typeof at[0] !== "number") continue;
        const colour = typeof item.color === "string" ? ({ red: "#e74c3c", blue: "#3498db", neutral: "#f1c40f" } as Record<string, string>)[item.color] ?? "#999" : "#777";
        const mk = svg("circle", { cx: at[0] * CELL + CELL - 7, cy: at[1] * CELL + CELL - 7, r: key === "orbs" ? 5 : 3,
          fill: colour, stroke: "#222", "stroke-width": 1, class: `marker marker-${key}` });
        const t = svg("title");
        t.textContent = `${key}: ${id}${item.held_by ? ` (held by ${item.held_by})` : ""}`;
        mk.append(t);
        b.append(mk);
      }
    }
    const mine = this.mine(m);
    const d = v.decision;
    // Units (their footprint, a glyph, a hit-point bar and a dot a status).
    const targets = new Map<string, Option>();
    if (d && mine) for (const o of d.options) if (v.units[o.id]) targets.set(o.id, o);
    for (const [id, u] of Object.entries(v.units)) {
      if (!u.at || u.taken_out === true) continue;
      const [x, y] = u.at, s = u.size || 1;
      const g = svg("g", { class: "unit", "data-unit": id, tabindex: 0, role: "button",
        "aria-label": `${u.name} (${u.team}) ${u.hp} of ${u.max_hp} HP${u.statuses.length ? ", " + u.statuses.join(", ") : ""}` });
      const c = svg("rect", { x: x * CELL + 3, y: y * CELL + 3, width: s * CELL - 6, height: s * CELL - 6, rx: 8,
        fill: this.colour(u.team), stroke: id === v.turn ? "#111" : "#fff", "stroke-width": id === v.turn ? 3 : 1.5 });
      const t = svg("text", { x: x * CELL + (s * CELL) / 2, y: y * CELL + s * CELL * 0.62, class: "glyph" });
      t.textContent = u.name.slice(0, s > 1 ? 3 : 2);
      const frac = u.max_hp > 0 ? Math.max(0, Math.min(1, u.hp / u.max_hp)) : 0;
      const bar = svg("rect", { x: x * CELL + 3, y: (y + s) * CELL - 6, width: (s * CELL - 6) * frac, height: 4,
        fill: frac > 0.5 ? "#2e7d32" : frac > 0.25 ? "#f9a825" : "#c62828", class: "hp" });
      g.append(c, t, bar);
      u.statuses.slice(0, 4).forEach((_, i) => g.append(svg("circle", { cx: x * CELL + 7 + i * 7, cy: y * CELL + 7, r: 3, fill: "#ffeb3b", stroke: "#333" })));
      const title = svg("title");
      title.textContent = `${u.name}: ${u.hp}/${u.max_hp} HP ${u.statuses.join(", ")}`;
      g.append(title);
      const target = targets.get(id);
      if (target) {
        g.classList.add("target");
        g.append(svg("rect", { x: x * CELL + 1, y: y * CELL + 1, width: s * CELL - 2, height: s * CELL - 2, class: "target-ring" }));
        g.setAttribute("aria-label", `${target.label} (target)`);
      }
      const act = () => (target ? this.choose(target.id) : this.explain(u, id));
      g.addEventListener("click", act);
      g.addEventListener("keydown", (e) => { if ((e as KeyboardEvent).key === "Enter" || (e as KeyboardEvent).key === " ") { e.preventDefault(); act(); } });
      b.append(g);
    }
    // The squares the decision offers, lit and clickable.
    if (d && mine) for (const o of d.options) {
      if (!o.square) continue;
      const [x, y] = o.square;
      const r = svg("rect", { x: x * CELL + 2, y: y * CELL + 2, width: CELL - 4, height: CELL - 4, class: "lit",
        tabindex: 0, role: "button", "aria-label": o.label, "data-option": o.id });
      const t = svg("title");
      t.textContent = o.label;
      r.append(t);
      r.addEventListener("click", () => this.choose(o.id));
      r.addEventListener("keydown", (e) => { if ((e as KeyboardEvent).key === "Enter" || (e as KeyboardEvent).key === " ") { e.preventDefault(); this.choose(o.id); } });
      b.append(r);
    }
  }

  // Arrow keys on the board move the focus to the nearest square or unit that way: among the
  // squares and targets the decision offers when there are any, else among the units.
  boardStep(key: string): boolean {
    const from = document.activeElement as SVGGraphicsElement | null;
    if (!from || !from.closest("#board")) return false;
    const picks = Array.from(document.querySelectorAll<SVGGraphicsElement>("#board .lit, #board g.target"));
    const all = picks.length ? picks : Array.from(document.querySelectorAll<SVGGraphicsElement>("#board g.unit"));
    const centre = (e: Element) => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
    const [fx, fy] = centre(from);
    const [dx, dy] = ({ ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] } as Record<string, number[]>)[key] ?? [0, 0];
    let best: SVGGraphicsElement | null = null, bestScore = Infinity;
    for (const e of all) {
      if (e === from) continue;
      const [x, y] = centre(e);
      const along = (x - fx) * dx + (y - fy) * dy, across = Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx);
      if (along <= 0.5) continue;
      const score = along + 2 * across;
      if (score < bestScore) { best = e; bestScore = score; }
    }
    best?.focus();
    return best !== null;
  }

  decision(m: Message) {
    const d = m.view.decision, box = $("#options");
    box.innerHTML = "";
    $("#prompt").textContent = d ? `${d.seat}${d.unit ? ` (${d.unit})` : ""}: ${d.prompt}` : m.view.outcome ? "The match is over." : "";
    if (m.can_undo && this.replayAt === null) {
      const u = el("button", { type: "button", id: "undo", class: "undo" }, "Undo my last choice");
      u.addEventListener("click", () => this.undo());
      box.append(u);
    }
    if (!d || !this.mine(m)) return;
    // Many squares are picked on the board; their buttons fold away (still reachable by keyboard).
    const squares = d.options.filter((o) => o.square).length;
    const fold = squares > 12 ? el("details") : null;
    if (fold) fold.append(el("summary", {}, `${squares} squares: pick one on the board, or open this list`));
    d.options.forEach((o, i) => {
      const b = el("button", { type: "button", "data-option": o.id, title: m.notes[i] || o.label },
        `${i < 9 ? i + 1 + ". " : ""}${o.label}${m.notes[i] ? " — " + m.notes[i] : ""}`);
      b.addEventListener("click", () => this.choose(o.id));
      (fold && o.square ? fold : box).append(b);
    });
    if (fold) box.append(fold);
  }

  info(v: View) {
    const box = $("#info");
    box.innerHTML = "";
    const dl = el("dl");
    const add = (k: string, val: string) => { dl.append(el("dt", {}, k), el("dd", {}, val)); };
    add("Round", String(v.round));
    if (v.turn) add("Turn", v.units[v.turn]?.name ?? v.turn);
    add("Score", Object.entries(v.score).map(([k, n]) => `${k} ${n}`).join(", ") || "—");
    if (v.strikes) add("Strikes", Object.entries(v.strikes).map(([k, n]) => `${k} ${n}`).join(", "));
    if (v.order) add("Turn order", v.order.map((id) => v.units[id]?.name ?? id).join(" → "));
    // The system's own counters (hero tokens, Malice...): every plain value the view adds.
    for (const [k, val] of Object.entries(v)) {
      if (["system", "round", "turn"].includes(k) || val === null || typeof val === "object") continue;
      add(k.replace(/_/g, " "), String(val));
    }
    box.append(dl);
  }

  units(v: View) {
    const ul = $("#units");
    ul.innerHTML = "";
    for (const [id, u] of Object.entries(v.units)) {
      const li = el("li", { "data-unit": id });
      const b = el("button", { type: "button", class: "unit-name" }, `${u.name}`);
      b.style.borderColor = this.colour(u.team);
      b.addEventListener("click", () => this.explain(u, id));
      li.append(b, document.createTextNode(` ${u.team}, ${u.hp}/${u.max_hp} HP${u.at ? ` at (${u.at[0]},${u.at[1]})` : u.unseen ? ", unseen" : ", off the map"}`));
      for (const s of u.status_details) {
        const sb = el("button", { type: "button", class: "status" }, `${s.name}${s.amount ? " " + s.amount : ""} (${s.duration})`);
        sb.addEventListener("click", () => this.lookup(s.name));
        li.append(sb);
      }
      if (u.powers?.length) {
        const more = el("details");
        more.append(el("summary", {}, "powers"));
        for (const p of u.powers) {
          const pb = el("button", { type: "button", class: "power" }, p);
          pb.addEventListener("click", () => this.lookup(p));
          more.append(pb);
        }
        li.append(more);
      }
      ul.append(li);
    }
  }

  explain(u: Unit, id?: string) {
    // Every word the unit carries (name, kind, class, implement...) and its id without a
    // trailing number ("bear-1" is a bear) are looked up; the unit itself is summed up first.
    const words = Object.values(u).filter((x): x is string => typeof x === "string" && x !== u.team && x !== "none");
    if (id) words.push(id.replace(/-\d+$/, ""));
    void this.lookup(words, u);
  }

  async lookup(term: string | string[], unit?: Unit) {
    const box = $("#lookup");
    if (!this.rules) {
      try { this.rules = (await api(`/api/rules/${this.msg?.system}`)).entries as Entry[]; } catch { this.rules = []; }
    }
    const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
    const terms = (Array.isArray(term) ? term : [term]).map(norm).filter(Boolean);
    const exact = (q: string) => this.rules!.filter((e) => norm(e.id) === q || norm(e.name) === q || (e.aliases ?? []).some((a) => norm(a) === q));
    const partial = (q: string) => this.rules!.filter((e) => norm(e.name).includes(q) || norm(e.id).includes(q)).slice(0, 3);
    const found: Entry[] = [];
    for (const q of terms) for (const e of exact(q)) if (!found.includes(e)) found.push(e);
    if (!found.length) for (const q of terms) for (const e of partial(q)) if (!found.includes(e)) found.push(e);
    const near = found.slice(0, 4);
    term = Array.isArray(term) ? term.join(", ") : term;
    box.innerHTML = "";
    if (unit) {
      const st = unit.status_details.map((x) => `${x.name}${x.amount ? " " + x.amount : ""} (${x.duration})`).join(", ");
      box.append(el("p", {}, `${unit.name} (${unit.team}): ${unit.hp}/${unit.max_hp} HP${st ? "; " + st : ""}`));
    }
    if (!near.length) box.append(el("p", {}, `Nothing to look up for “${term}”.`));
    for (const e of near) {
      const art = el("article");
      art.append(el("h3", {}, `${e.name} (${e.kind}, ${e.id})`), el("p", {}, e.text));
      box.append(art);
    }
  }
}

const m = location.pathname.match(/^\/play\/([0-9a-f]+)$/);
if (m) void new MatchPage(m[1]).start();
else void lobby();
