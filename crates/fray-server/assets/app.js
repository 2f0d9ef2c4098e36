"use strict";
(() => {
  // src/app.ts
  var $ = (sel) => document.querySelector(sel);
  function el(tag, attrs = {}, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== void 0) e.textContent = text;
    return e;
  }
  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs = {}) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  }
  async function api(path, body) {
    const r = await fetch(path, body === void 0 ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    });
    const text = await r.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = { error: text };
    }
    if (!r.ok) throw new Error(json.error ?? `HTTP ${r.status}`);
    return json;
  }
  async function lobby() {
    const main = $("#main");
    main.innerHTML = "";
    main.append(el("h1", {}, "Fray: start a match"));
    const data = await api("/api/systems");
    const systems = data.systems.filter((s) => s.playable === null);
    const form = el("form", { id: "lobby", "aria-label": "New match" });
    const field = (label, input) => {
      const id = input.id;
      const l = el("label", { for: id }, label);
      const row = el("div", { class: "row" });
      row.append(l, input);
      return row;
    };
    const sys = el("select", { id: "system", name: "system" });
    for (const s of systems) sys.append(el("option", { value: s.id }, s.title));
    const map = el("select", { id: "map", name: "map" });
    const seed = el("input", { id: "seed", name: "seed", type: "number", min: "0", placeholder: "random" });
    const seatsBox = el("fieldset", { id: "seats" });
    const optionsBox = el("input", { id: "options", name: "options", placeholder: "KEY=VALUE, KEY=VALUE" });
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
      for (const m2 of s.maps) map.append(el("option", { value: m2 }, m2));
      seatsBox.innerHTML = "";
      seatsBox.append(el("legend", {}, "Seats"));
      s.seats.forEach((name, i) => {
        const row = el("div", { class: "row seat" });
        const who = el("select", { id: `seat-${name}`, "data-seat": name });
        who.append(el("option", { value: "person" }, "person"));
        for (const b of data.bots) who.append(el("option", { value: `bot:${b}` }, `bot: ${b}`));
        if (!s.bots) who.disabled = true;
        who.value = i === 0 || !s.bots ? "person" : "bot:greedy";
        row.append(el("label", { for: who.id }, `${name}`), who);
        if (s.teams.length && i < 2) {
          const team = el("select", { id: `team-${name}`, "data-team": name });
          team.append(el("option", { value: "" }, "default team"));
          for (const t of s.teams) team.append(el("option", { value: t }, t));
          const file = el("input", { type: "file", id: `teamfile-${name}`, accept: ".toml,text/plain" });
          row.append(
            el("label", { for: team.id, class: "sr" }, `${name} team`),
            team,
            el("label", { for: file.id }, "or a team file"),
            file
          );
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
      const teams = [];
      for (const name of s.seats) {
        const who = $(`#seat-${name}`).value;
        seats.push(who === "person" ? { kind: "person" } : { kind: "bot", bot: who.slice(4) });
        const team = document.getElementById(`team-${name}`);
        const file = document.getElementById(`teamfile-${name}`);
        if (file?.files?.length) teams.push({ path: file.files[0].name, text: await file.files[0].text() });
        else if (team?.value) teams.push(team.value);
      }
      const body = { system: s.id, seats };
      if (teams.length) body.teams = teams;
      if (map.value) body.map = map.value;
      if (seed.value) body.seed = Number(seed.value);
      const opts = optionsBox.value.split(",").map((x) => x.trim()).filter(Boolean);
      if (opts.length) body.options = opts;
      try {
        const m2 = await api("/api/matches", body);
        out.innerHTML = "";
        out.append(el("h2", {}, `Match ${m2.match} (seed ${m2.seed})`));
        const list = el("ul");
        for (const seat of m2.seats) {
          const li2 = el("li");
          if (seat.kind === "person") {
            const a = el("a", { href: seat.link, class: "seat-link", "data-seat": seat.name }, `Play ${seat.name}`);
            li2.append(a, document.createTextNode(` \u2014 send this link to the person at ${seat.name}: ${location.origin}${seat.link}`));
          } else li2.textContent = `${seat.name}: bot (${seat.bot})`;
          list.append(li2);
        }
        const li = el("li");
        li.append(
          el("a", { href: m2.spectator.link, class: "spectator-link" }, "Watch"),
          document.createTextNode(` \u2014 spectators: ${location.origin}${m2.spectator.link}`)
        );
        list.append(li);
        out.append(list);
      } catch (e) {
        err.textContent = e.message;
      }
    });
  }
  var SIDE = ["#c0392b", "#2471a3", "#7d8c2e", "#8e44ad", "#d68910"];
  var TERRAIN = {
    "#": "#4a4a4a",
    ".": "#f4f1e8",
    "~": "#c9dfc1",
    "!": "#f1b0a0",
    "F": "#8d8d8d",
    "l": "#c8c3b5",
    "o": "#dfe3ea",
    "D": "#d9cfe6",
    "X": "#b497d6",
    "1": "#f5c6c0",
    "2": "#c0d6f5"
  };
  var CELL = 32;
  var MatchPage = class {
    constructor(token) {
      this.msg = null;
      this.log = [];
      this.rules = null;
      this.sideColour = /* @__PURE__ */ new Map();
      this.ws = null;
      this.replayAt = null;
      // The next message is the first on a new connection: taken whatever its revision (a
      // restarted server counts revisions from 1 again).
      this.fresh = true;
      this.token = token;
    }
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
      $("#lookup-form").addEventListener("submit", (e) => {
        e.preventDefault();
        this.lookup($("#lookup-q").value);
      });
      $("#step-back").addEventListener("click", () => this.step(-1));
      $("#step-fwd").addEventListener("click", () => this.step(1));
      $("#step-live").addEventListener("click", () => {
        this.replayAt = null;
        if (this.msg) this.render(this.msg);
      });
      document.addEventListener("keydown", (e) => {
        if (e.target.tagName === "INPUT") return;
        const n = Number(e.key);
        if (n >= 1 && n <= 9) {
          const b = document.querySelectorAll("#options button[data-option]")[n - 1];
          b?.click();
        }
        if (e.key.startsWith("Arrow") && this.boardStep(e.key)) e.preventDefault();
      });
      try {
        this.show(await api(`/api/play/${this.token}`));
      } catch (e) {
        $("#status").textContent = e.message;
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
        const m2 = JSON.parse(ev.data);
        if (m2.type === "update") this.show(m2);
        else if (m2.type === "error") $("#error").textContent = m2.error ?? "refused";
      };
      ws.onopen = () => {
        $("#status").dataset.connected = "yes";
      };
      ws.onclose = () => {
        $("#status").dataset.connected = "no";
        $("#status").textContent = "connection lost; reconnecting\u2026";
        setTimeout(() => this.connect(), 1e3);
      };
    }
    show(m2) {
      const first = this.fresh;
      this.fresh = false;
      if (!first && this.msg && m2.revision <= this.msg.revision) return;
      if (m2.rolls?.length && (first || !this.msg || m2.version > this.msg.version)) this.dice(m2.rolls);
      if (!this.msg || first || m2.version < this.msg.version) this.log = [...m2.view.log];
      else if (m2.version > this.msg.version) this.log.push(...m2.log);
      this.log = this.log.slice(-400);
      this.msg = m2;
      if (this.replayAt === null) this.render(m2);
    }
    async step(d) {
      if (!this.msg) return;
      const at = Math.max(0, Math.min(this.msg.version, (this.replayAt ?? this.msg.version) + d));
      this.replayAt = at;
      const m2 = await api(`/api/play/${this.token}/step/${at}`);
      this.render(m2);
    }
    // The dice tray: the rolls of the latest change that rolled any, newest first, above the few
    // before them (dimmed). Items are added, never redrawn, so a screen reader reads only the new.
    dice(rolls) {
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
        if (r.bonus) li.append(el("span", { class: "roll-bonus" }, ` ${r.bonus > 0 ? "+" : "\u2212"}${Math.abs(r.bonus)}`));
        if (r.result !== null) li.append(el("span", { class: "roll-result" }, ` \u2192 ${r.result}`));
        if (r.outcome) li.append(el("span", { class: "roll-outcome" }, `, ${r.outcome}`));
        li.append(el("span", { class: "sr" }, `. ${r.text}`));
        tray.prepend(li);
      }
      while (tray.children.length > 8) tray.lastElementChild.remove();
    }
    colour(team) {
      if (!this.sideColour.has(team)) {
        const seats = this.msg?.seats.map((s) => s.name) ?? [];
        const i = seats.indexOf(team);
        this.sideColour.set(team, SIDE[(i >= 0 ? i : this.sideColour.size) % SIDE.length]);
      }
      return this.sideColour.get(team);
    }
    mine(m2) {
      return m2.you.seat !== null && m2.waiting === m2.you.name && !!m2.view.decision?.options.length && this.replayAt === null;
    }
    async undo() {
      $("#error").textContent = "";
      try {
        this.show(await api(`/api/play/${this.token}/undo`, {}));
      } catch (e) {
        $("#error").textContent = e.message;
      }
    }
    async choose(id) {
      $("#error").textContent = "";
      try {
        this.show(await api(`/api/play/${this.token}`, { choose: id }));
      } catch (e) {
        $("#error").textContent = e.message;
      }
    }
    render(m2) {
      const v = m2.view;
      document.title = `Fray \u2014 ${m2.title}`;
      $("#title").textContent = m2.title;
      $("#who").textContent = m2.you.seat === null ? "You are watching." : `You play ${m2.you.name}.`;
      const replay = this.replayAt !== null ? ` Replay: step ${this.replayAt} of ${m2.steps ?? m2.version}.` : "";
      $("#status").textContent = (v.outcome ? v.outcome.summary : m2.waiting ? m2.waiting === m2.you.name ? "Your decision." : `Waiting for ${m2.waiting}.` : "") + replay;
      if (this.replayAt === null) $("#status").dataset.version = String(m2.version);
      $("#step-at").textContent = this.replayAt === null ? `live (${m2.version} inputs)` : `step ${this.replayAt}`;
      this.board(m2);
      this.decision(m2);
      this.info(v);
      this.units(v);
      const log = $("#log");
      log.innerHTML = "";
      for (const line of (this.replayAt === null ? this.log : v.log).slice(-120)) log.append(el("li", {}, line));
      log.scrollTop = log.scrollHeight;
    }
    board(m2) {
      const v = m2.view;
      const b = $("#board");
      b.innerHTML = "";
      const rows = v.map.length, cols = Math.max(0, ...v.map.map((r) => [...r].length));
      const room = Math.min(760, Math.max(320, window.innerWidth - 40));
      CELL = Math.max(24, Math.min(64, Math.floor(room / Math.max(1, cols))));
      b.setAttribute("viewBox", `0 0 ${cols * CELL} ${rows * CELL}`);
      b.setAttribute("width", String(cols * CELL));
      b.setAttribute("height", String(rows * CELL));
      const legend = v.legend ?? {};
      v.map.forEach((row, y) => [...row].forEach((ch, x) => {
        const r = svg("rect", {
          x: x * CELL,
          y: y * CELL,
          width: CELL,
          height: CELL,
          class: "sq",
          fill: TERRAIN[ch] ?? (/[A-Z]/.test(ch) ? "#f7e7a8" : "#eeeeee")
        });
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
      const common = /* @__PURE__ */ new Set(["system", "round", "turn", "map", "units", "score", "decision", "log", "outcome", "legend", "order", "strikes"]);
      for (const [key, val] of Object.entries(v)) {
        if (common.has(key) || !val || typeof val !== "object") continue;
        const items = Array.isArray(val) ? val.map((x, i) => [String(i), x]) : Object.entries(val);
        for (const [id, item] of items) {
          const at = item && typeof item === "object" ? item.at : null;
          if (!Array.isArray(at) || at.length !== 2 || typeof at[0] !== "number") continue;
          const colour = typeof item.color === "string" ? { red: "#e74c3c", blue: "#3498db", neutral: "#f1c40f" }[item.color] ?? "#999" : "#777";
          const mk = svg("circle", {
            cx: at[0] * CELL + CELL - 7,
            cy: at[1] * CELL + CELL - 7,
            r: key === "orbs" ? 5 : 3,
            fill: colour,
            stroke: "#222",
            "stroke-width": 1,
            class: `marker marker-${key}`
          });
          const t = svg("title");
          t.textContent = `${key}: ${id}${item.held_by ? ` (held by ${item.held_by})` : ""}`;
          mk.append(t);
          b.append(mk);
        }
      }
      const mine = this.mine(m2);
      const d = v.decision;
      const targets = /* @__PURE__ */ new Map();
      if (d && mine) {
        for (const o of d.options) if (v.units[o.id]) targets.set(o.id, o);
      }
      for (const [id, u] of Object.entries(v.units)) {
        if (!u.at || u.taken_out === true) continue;
        const [x, y] = u.at, s = u.size || 1;
        const g = svg("g", {
          class: "unit",
          "data-unit": id,
          tabindex: 0,
          role: "button",
          "aria-label": `${u.name} (${u.team}) ${u.hp} of ${u.max_hp} HP${u.statuses.length ? ", " + u.statuses.join(", ") : ""}`
        });
        const c = svg("rect", {
          x: x * CELL + 3,
          y: y * CELL + 3,
          width: s * CELL - 6,
          height: s * CELL - 6,
          rx: 8,
          fill: this.colour(u.team),
          stroke: id === v.turn ? "#111" : "#fff",
          "stroke-width": id === v.turn ? 3 : 1.5
        });
        const t = svg("text", { x: x * CELL + s * CELL / 2, y: y * CELL + s * CELL * 0.62, class: "glyph" });
        t.textContent = u.name.slice(0, s > 1 ? 3 : 2);
        const frac = u.max_hp > 0 ? Math.max(0, Math.min(1, u.hp / u.max_hp)) : 0;
        const bar = svg("rect", {
          x: x * CELL + 3,
          y: (y + s) * CELL - 6,
          width: (s * CELL - 6) * frac,
          height: 4,
          fill: frac > 0.5 ? "#2e7d32" : frac > 0.25 ? "#f9a825" : "#c62828",
          class: "hp"
        });
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
        const act = () => target ? this.choose(target.id) : this.explain(u, id);
        g.addEventListener("click", act);
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            act();
          }
        });
        b.append(g);
      }
      if (d && mine) for (const o of d.options) {
        if (!o.square) continue;
        const [x, y] = o.square;
        const r = svg("rect", {
          x: x * CELL + 2,
          y: y * CELL + 2,
          width: CELL - 4,
          height: CELL - 4,
          class: "lit",
          tabindex: 0,
          role: "button",
          "aria-label": o.label,
          "data-option": o.id
        });
        const t = svg("title");
        t.textContent = o.label;
        r.append(t);
        r.addEventListener("click", () => this.choose(o.id));
        r.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            this.choose(o.id);
          }
        });
        b.append(r);
      }
    }
    // Arrow keys on the board move the focus to the nearest square or unit that way: among the
    // squares and targets the decision offers when there are any, else among the units.
    boardStep(key) {
      const from = document.activeElement;
      if (!from || !from.closest("#board")) return false;
      const picks = Array.from(document.querySelectorAll("#board .lit, #board g.target"));
      const all = picks.length ? picks : Array.from(document.querySelectorAll("#board g.unit"));
      const centre = (e) => {
        const r = e.getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2];
      };
      const [fx, fy] = centre(from);
      const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key] ?? [0, 0];
      let best = null, bestScore = Infinity;
      for (const e of all) {
        if (e === from) continue;
        const [x, y] = centre(e);
        const along = (x - fx) * dx + (y - fy) * dy, across = Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx);
        if (along <= 0.5) continue;
        const score = along + 2 * across;
        if (score < bestScore) {
          best = e;
          bestScore = score;
        }
      }
      best?.focus();
      return best !== null;
    }
    decision(m2) {
      const d = m2.view.decision, box = $("#options");
      box.innerHTML = "";
      $("#prompt").textContent = d ? `${d.seat}${d.unit ? ` (${d.unit})` : ""}: ${d.prompt}` : m2.view.outcome ? "The match is over." : "";
      if (m2.can_undo && this.replayAt === null) {
        const u = el("button", { type: "button", id: "undo", class: "undo" }, "Undo my last choice");
        u.addEventListener("click", () => this.undo());
        box.append(u);
      }
      if (!d || !this.mine(m2)) return;
      const squares = d.options.filter((o) => o.square).length;
      const fold = squares > 12 ? el("details") : null;
      if (fold) fold.append(el("summary", {}, `${squares} squares: pick one on the board, or open this list`));
      d.options.forEach((o, i) => {
        const b = el(
          "button",
          { type: "button", "data-option": o.id, title: m2.notes[i] || o.label },
          `${i < 9 ? i + 1 + ". " : ""}${o.label}${m2.notes[i] ? " \u2014 " + m2.notes[i] : ""}`
        );
        b.addEventListener("click", () => this.choose(o.id));
        (fold && o.square ? fold : box).append(b);
      });
      if (fold) box.append(fold);
    }
    info(v) {
      const box = $("#info");
      box.innerHTML = "";
      const dl = el("dl");
      const add = (k, val) => {
        dl.append(el("dt", {}, k), el("dd", {}, val));
      };
      add("Round", String(v.round));
      if (v.turn) add("Turn", v.units[v.turn]?.name ?? v.turn);
      add("Score", Object.entries(v.score).map(([k, n]) => `${k} ${n}`).join(", ") || "\u2014");
      if (v.strikes) add("Strikes", Object.entries(v.strikes).map(([k, n]) => `${k} ${n}`).join(", "));
      if (v.order) add("Turn order", v.order.map((id) => v.units[id]?.name ?? id).join(" \u2192 "));
      for (const [k, val] of Object.entries(v)) {
        if (["system", "round", "turn"].includes(k) || val === null || typeof val === "object") continue;
        add(k.replace(/_/g, " "), String(val));
      }
      box.append(dl);
    }
    units(v) {
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
    explain(u, id) {
      const words = Object.values(u).filter((x) => typeof x === "string" && x !== u.team && x !== "none");
      if (id) words.push(id.replace(/-\d+$/, ""));
      void this.lookup(words, u);
    }
    async lookup(term, unit) {
      const box = $("#lookup");
      if (!this.rules) {
        try {
          this.rules = (await api(`/api/rules/${this.msg?.system}`)).entries;
        } catch {
          this.rules = [];
        }
      }
      const norm = (s) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
      const terms = (Array.isArray(term) ? term : [term]).map(norm).filter(Boolean);
      const exact = (q) => this.rules.filter((e) => norm(e.id) === q || norm(e.name) === q || (e.aliases ?? []).some((a) => norm(a) === q));
      const partial = (q) => this.rules.filter((e) => norm(e.name).includes(q) || norm(e.id).includes(q)).slice(0, 3);
      const found = [];
      for (const q of terms) for (const e of exact(q)) if (!found.includes(e)) found.push(e);
      if (!found.length) {
        for (const q of terms) for (const e of partial(q)) if (!found.includes(e)) found.push(e);
      }
      const near = found.slice(0, 4);
      term = Array.isArray(term) ? term.join(", ") : term;
      box.innerHTML = "";
      if (unit) {
        const st = unit.status_details.map((x) => `${x.name}${x.amount ? " " + x.amount : ""} (${x.duration})`).join(", ");
        box.append(el("p", {}, `${unit.name} (${unit.team}): ${unit.hp}/${unit.max_hp} HP${st ? "; " + st : ""}`));
      }
      if (!near.length) box.append(el("p", {}, `Nothing to look up for \u201C${term}\u201D.`));
      for (const e of near) {
        const art = el("article");
        art.append(el("h3", {}, `${e.name} (${e.kind}, ${e.id})`), el("p", {}, e.text));
        box.append(art);
      }
    }
  };
  var m = location.pathname.match(/^\/play\/([0-9a-f]+)$/);
  if (m) void new MatchPage(m[1]).start();
  else void lobby();
})();
