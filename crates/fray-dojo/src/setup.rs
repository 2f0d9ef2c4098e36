//! Building a fight: table options, encounter files (a map and the units with their Stances),
//! the sample encounter, and the state they make.

use crate::content::{Content, Die, Obstacle, Token};
use crate::state::{Kind, Options, SIDES, Stance, State, TurnMarks, Unit, Variant, Weight};
use fray_core::dice::Pool;
use fray_core::grid::{Grid, Pos};
use fray_core::turns::Meter;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// The table options `fray play --option` takes, each as `KEY=VALUES` and what it changes.
pub const TABLE_OPTIONS: &[(&str, &str)] = &[
    (
        "weight=middleweight|featherweight|lightweight|heavyweight|weight-of-the-world",
        "HP per bar and Heal Value (D-CW-1)",
    ),
    ("lightweight-heal=2|3", "Lightweight's Heal Value (D-G-01)"),
    ("default-bonus=true|false", "the heroes' +2 HP a bar at Light, Middle and Heavy weight (D-CW-2)"),
    ("formless-range=1-2", "the range of a Stance with no Style (a test fight's)"),
    ("boss-die=6 (4-12)", "the size of a Boss's extra die per Stance (D-EN-12, D-G-DICE)"),
    ("wild-die=6 (4-12)", "the size of Wild Form's bonus dice (D-G-DICE)"),
    ("inspired-die=6 (4-12)", "the die an Inspired token rolls (D-TOK-9, D-G-DICE)"),
    ("dice-FORM=d8,d6,d6", "a Form's Action Dice, in place of the reconstruction (D-G-DICE)"),
    ("round-limit=30 (0-999, 0 none)", "rounds after which the fight stops as a draw"),
    ("opening=d6 (dN or 1-12)", "Found An Opening's number, lost with the icons (D-BON-3, D-G-OPENING)"),
    (
        "start=ends|ambush",
        "where a chosen force starts: the far end, or around the heroes after failed Troubles (D-TERR-3, D-SKL-5)",
    ),
    ("world-of-cardboard=false|true", "a push or pull into a Wall breaks it to Rubble and ends there (D-OPT-1)"),
    (
        "stooge-figures=false|true",
        "a Stooge group stands one figure a member, moved and lost one by one (D-EN-6, D-EN-7)",
    ),
    ("heroic-power-up=false|true", "Heroic Spirit may hand on a Bonus in place of the two lowest numbers (D-OPT-2)"),
    (
        "endless-stooges=false|true",
        "a Stooge hurt leaves play; fresh Stooges come in as each Stooge turn starts (D-OPT-4; Stooges as figures)",
    ),
    ("favor=helper|helped", "three-way battles: who holds the Favor token after a help (D-CMP-4, D-G-FAVOR)"),
];

/// Reads table options given as `KEY=VALUE`; every bad one is reported.
pub fn options_from_pairs(pairs: &[String], content: &Content) -> Result<Options, Vec<String>> {
    let mut o = Options::default();
    let mut errors = Vec::new();
    let mut figures_off = false;
    for p in pairs {
        let (k, v) = match fray_core::table::option_pair(p) {
            Ok(kv) => kv,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let bad = |what: &str| format!("--option {k}={v}: {what}");
        let num = |lo: i64, hi: i64| v.parse::<i64>().ok().filter(|n| (lo..=hi).contains(n));
        match k {
            "weight" => match toml::Value::String(v.into()).try_into::<Weight>() {
                Ok(w) => o.weight = w,
                Err(_) => errors.push(bad(
                    "a weight class: featherweight, lightweight, middleweight, heavyweight, weight-of-the-world",
                )),
            },
            "lightweight-heal" => match num(2, 3) {
                Some(n) => o.lightweight_heal = n as i32,
                None => errors.push(bad("2 or 3")),
            },
            "default-bonus" => match v.parse::<bool>() {
                Ok(b) => o.default_bonus = b,
                Err(_) => errors.push(bad("true or false")),
            },
            "favor" => match v {
                "helper" => o.favor_to_helper = true,
                "helped" => o.favor_to_helper = false,
                _ => errors.push(bad("helper or helped")),
            },
            "start" => match v {
                "ends" => o.ambush = false,
                "ambush" => o.ambush = true,
                _ => errors.push(bad("ends or ambush")),
            },
            "world-of-cardboard" => match v.parse::<bool>() {
                Ok(b) => o.world_of_cardboard = b,
                Err(_) => errors.push(bad("true or false")),
            },
            "stooge-figures" => match v.parse::<bool>() {
                Ok(b) => {
                    o.stooge_figures = b;
                    figures_off |= !b;
                }
                Err(_) => errors.push(bad("true or false")),
            },
            "heroic-power-up" => match v.parse::<bool>() {
                Ok(b) => o.heroic_power_up = b,
                Err(_) => errors.push(bad("true or false")),
            },
            "endless-stooges" => match v.parse::<bool>() {
                Ok(b) => o.endless_stooges = b,
                Err(_) => errors.push(bad("true or false")),
            },
            "formless-range" => {
                let r = v.split_once('-').and_then(|(a, b)| Some((a.parse::<i32>().ok()?, b.parse::<i32>().ok()?)));
                match r {
                    Some((a, b)) if (0..=9).contains(&a) && a <= b && b <= 12 => o.formless_range = (a, b),
                    _ => errors.push(bad("MIN-MAX, 0-9 and up to 12")),
                }
            }
            "boss-die" | "wild-die" | "inspired-die" => match num(4, 12) {
                Some(n) if k == "boss-die" => o.boss_die = n as u32,
                Some(n) if k == "wild-die" => o.wild_die = n as u32,
                Some(n) => o.inspired_die = n as u32,
                None => errors.push(bad("a die size from 4 to 12")),
            },
            "opening" => match Die::parse(v) {
                Some(Die::Roll(n)) if (2..=20).contains(&n) => o.opening = Die::Roll(n),
                Some(Die::Fixed(n)) if (1..=12).contains(&n) => o.opening = Die::Fixed(n),
                _ => errors.push(bad("a die (d6) or a number from 1 to 12")),
            },
            "round-limit" => match num(0, 999) {
                Some(n) => o.round_limit = n as u32,
                None => errors.push(bad("0 to 999")),
            },
            _ => match k.strip_prefix("dice-") {
                Some(form) => {
                    let dice: Option<Vec<Die>> = v.split(',').map(Die::parse).collect();
                    match (content.form(form), dice) {
                        (Some(f), Some(d)) if !d.is_empty() && d.len() <= 8 => {
                            o.dice.push((content.forms[f].id.clone(), d));
                        }
                        (None, _) => errors.push(bad("no such Form")),
                        _ => errors.push(bad("one to eight dice, as d8,d6,d6")),
                    }
                }
                None => errors.push(format!("--option {k}: no such option (see fray play --help)")),
            },
        }
    }
    // D-OPT-4: Endless Stooges removes the Stooge hit, so it needs the Stooges as figures.
    if o.endless_stooges {
        if figures_off {
            errors.push(
                "--option endless-stooges=true: it plays the Stooges as figures; drop stooge-figures=false (D-OPT-4)"
                    .into(),
            );
        }
        o.stooge_figures = true;
    }
    if errors.is_empty() { Ok(o) } else { Err(errors) }
}

/// The map of an encounter.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// One string a row: `.` floor, `#` Wall, `%` Rubble, `^` Trap, `~` Fog, `O` an Edge.
    pub rows: Vec<String>,
    /// The grid's shape: `square` (the default and the only one played, D-G-07, D-OPT-5).
    #[serde(default)]
    pub grid: Option<Spanned<String>>,
}

/// A unit of an encounter (or a scenario, which may also set what it holds).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Id.
    pub id: String,
    /// Name (the id if none).
    #[serde(default)]
    pub name: Option<String>,
    /// `heroes` or `enemies`, or `rivals` (the second enemy team of a three-way battle, D-CMP-4).
    pub side: String,
    /// Hero, Warrior or Boss.
    pub kind: Kind,
    /// Health bars (1; a Boss 2 to 5).
    #[serde(default)]
    pub bars: Option<u8>,
    /// Its square.
    pub at: [i32; 2],
    /// Its Stances, by Form name (none for a Frantic hero, which names `forms` and `styles`).
    #[serde(default)]
    pub stances: Vec<String>,
    /// HP on its current bar (scenarios).
    #[serde(default)]
    pub hp: Option<i32>,
    /// Bars already broken (scenarios).
    #[serde(default)]
    pub broken: Option<u8>,
    /// Its Shield (scenarios).
    #[serde(default)]
    pub shield: Option<i32>,
    /// Tokens it holds (scenarios).
    #[serde(default)]
    pub tokens: BTreeMap<String, i32>,
    /// Whose Challenge it holds (scenarios).
    #[serde(default)]
    pub challenge: Option<String>,
    /// Numbers already in its pool (scenarios).
    #[serde(default)]
    pub pool: Vec<i32>,
    /// Taken Out at 0 HP, still on its square (scenarios).
    #[serde(default)]
    pub out: bool,
    /// Its Archetypes: a hero one (Focused) or two (Fused), a Warrior or Boss one (Fused).
    #[serde(default)]
    pub archetypes: Vec<String>,
    /// Its Build (heroes only, D-BLD-*).
    #[serde(default)]
    pub build: Option<String>,
    /// Its four Skills (heroes, D-HC-1, D-HC-6): checked by `fray build`.
    #[serde(default)]
    pub skills: Vec<String>,
    /// A Frantic hero's three Frantic abilities, by Archetype (D-HC-5); it then names `forms`
    /// and `styles` instead of `stances`.
    #[serde(default)]
    pub frantic: Vec<String>,
    /// A Frantic hero's three Forms (D-HC-5).
    #[serde(default)]
    pub forms: Vec<String>,
    /// A Frantic hero's three Styles (D-HC-5).
    #[serde(default)]
    pub styles: Vec<String>,
    /// Copies of it already on the map (scenarios; D-OBS-1), each on an empty square.
    #[serde(default)]
    pub copies: Vec<[i32; 2]>,
    /// Control Form's pick, made with the Stance (L1115): `far` (the default: the longest range
    /// grows by 3) or `near` (the shortest range becomes 1). It holds for its Control Stances.
    #[serde(default)]
    pub control: Option<String>,
    /// A Vehicle's shape (D-RNG-5): the squares it fills, as offsets `[dx, dy]` from `at`
    /// (0 to 8 each; `at` itself is always one). None: the default 3 by 2 block.
    #[serde(default)]
    pub shape: Vec<[i32; 2]>,
}

/// An encounter file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterFile {
    /// Its name.
    pub name: String,
    /// Its weight class (the table's otherwise).
    #[serde(default)]
    pub weight: Option<Weight>,
    /// The map.
    pub map: MapSpec,
    /// The units.
    pub unit: Vec<Spanned<UnitSpec>>,
    /// The optional Niche Protection rule (D-HC-8, D-OPT-3) for `fray build`: no two heroes share
    /// a Style, nor (Focused and Fused heroes) an Archetype.
    #[serde(default, rename = "niche-protection")]
    pub niche_protection: bool,
}

/// Reads an encounter file; errors name file, line and field.
pub fn read_encounter(path: &str, text: &str) -> Result<EncounterFile, Vec<String>> {
    toml::from_str(text).map_err(|e| vec![format!("{path}: {}", e.to_string().trim_end())])
}

/// The fight `units` make on `map`, every problem at once (each with its file and line).
pub fn build(
    path: &str,
    text: &str,
    content: &Arc<Content>,
    map: &MapSpec,
    units: &[Spanned<UnitSpec>],
    options: Options,
) -> Result<State, Vec<String>> {
    let mut errors = Vec::new();
    let height = map.rows.len() as i32;
    let width = map.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
    if !(1..=20).contains(&width) || !(1..=20).contains(&height) {
        errors.push(format!("{path}: map: {width}x{height} squares; a map is 1 to 20 on a side (D-GRID-1)"));
    }
    // D-G-07, D-OPT-5: the glossary's hexagonal grid has no distances or costs in the book, so
    // only square grids are played; a map asking for another shape is refused.
    if let Some(shape) = &map.grid
        && shape.get_ref() != "square"
    {
        let line = fray_core::scenario::line_of(text, shape.span().start);
        errors.push(format!(
            "{path}:{line}: map: field `grid`: {:?} is not played; Fray plays square grids only (the book gives a hex grid no distances or costs, D-G-07, D-OPT-5)",
            shape.get_ref()
        ));
    }
    let mut grid = Grid::new(width.max(1), height.max(1), None);
    for (y, row) in map.rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let p = Pos::new(x as i32, y as i32);
            match c {
                '.' => {}
                c => match Obstacle::of_glyph(c) {
                    Some(o) => {
                        if let Some(cell) = grid.get_mut(p) {
                            *cell = Some(o);
                        }
                    }
                    None => errors.push(format!("{path}: map row {y}: {c:?} is not . # % ^ ~ O")),
                },
            }
        }
    }
    let hp = options.weight.hp();
    let bonus = options.default_bonus && options.weight.default_bonus();
    let mut out = Vec::new();
    let mut shapes = Vec::new();
    // D-CMP-4: a unit on the rivals' side makes it a three-way battle (heroes, Team A, Team B).
    let sides = if units.iter().any(|u| u.get_ref().side == SIDES[2]) { 3 } else { 2 };
    let mut meter = Meter::new(sides);
    for spanned in units {
        let line = fray_core::scenario::line_of(text, spanned.span().start);
        let u = spanned.get_ref();
        let at = |field: &str| format!("{path}:{line}: unit {}: field `{field}`", u.id);
        let Some(side) = SIDES.iter().position(|s| *s == u.side) else {
            errors.push(format!("{}: heroes, enemies or rivals (a three-way battle, D-CMP-4)", at("side")));
            continue;
        };
        // D-EN-14: a Boss has the Director's 2 to 5 bars; D-G-35: the Twins too, one bar track
        // for both figures and a turn for each bar, whichever twin takes it.
        let bars = u.bars.unwrap_or(if u.kind == Kind::Boss && side >= 1 { 2 } else { 1 });
        let mut stances: Vec<Stance> = Vec::new();
        let frantic = !u.frantic.is_empty();
        // D-HC-5, D-HC-9: a Frantic hero may stand in any of its Forms with any of its Styles.
        let combos: Vec<String> = if frantic {
            u.forms.iter().flat_map(|f| u.styles.iter().map(move |st| format!("{st}+{f}"))).collect()
        } else {
            u.stances.clone()
        };
        if frantic && (u.kind != Kind::Hero || !u.stances.is_empty() || !u.archetypes.is_empty()) {
            errors.push(format!(
                "{}: a Frantic hero names `forms` and `styles`, no `stances` or `archetypes` (D-HC-5)",
                at("frantic")
            ));
        }
        // Control's pick (L1115): the longest range +3, or the shortest 1.
        let near = match u.control.as_deref() {
            None | Some("far") => false,
            Some("near") => true,
            Some(other) => {
                errors.push(format!("{}: {other:?}: Control's pick is \"far\" or \"near\"", at("control")));
                false
            }
        };
        for s in &combos {
            // D-STN-1: `style+form`, or a Form alone.
            let (style, form) = match s.split_once('+') {
                Some((st, f)) => (Some(st), f),
                None => (None, s.as_str()),
            };
            // D-STN-4: the Forbidden Style joins two Forms, `forbidden+form+form`.
            let (form, form2) = match form.split_once('+') {
                Some((a, b)) if style == Some("forbidden") => match content.form(b) {
                    Some(f2) if content.form(a) != Some(f2) => (a, Some(f2)),
                    _ => {
                        errors.push(format!("{}: {s}: a second Form that exists and differs (D-STN-4)", at("stances")));
                        continue;
                    }
                },
                Some(_) => {
                    errors.push(format!("{}: {s}: only the Forbidden Style takes two Forms (D-STN-4)", at("stances")));
                    continue;
                }
                // One Form alone plays at its own dice (test fights may bend D-STN-4).
                None => (form, None),
            };
            let style = match style.map(|st| (st, content.style(st))) {
                None => None,
                Some((_, Some(i))) => Some(i),
                Some((st, None)) => {
                    errors.push(format!("{}: no Style {st:?}", at("stances")));
                    continue;
                }
            };
            match content.form(form) {
                // D-HC-2, D-EN-11: a unit's Stances use different Forms and different Styles.
                Some(f)
                    if !frantic
                        && stances
                            .iter()
                            .any(|x| [Some(x.form), x.form2].iter().flatten().any(|&g| g == f || Some(g) == form2)) =>
                {
                    errors.push(format!("{}: the Form of {s} twice (D-HC-2)", at("stances")))
                }
                Some(_) if !frantic && style.is_some() && stances.iter().any(|x| x.style == style) => {
                    errors.push(format!("{}: the Style of {s} twice (D-HC-2)", at("stances")))
                }
                Some(f) => stances.push(Stance { form: f, style, form2, near }),
                None => errors.push(format!("{}: no Form {form:?}", at("stances"))),
            }
        }
        match u.kind {
            Kind::Warrior if stances.len() != 1 || bars != 1 => {
                errors.push(format!("{}: a Warrior has one Stance and one bar (D-EN-2)", at("stances")))
            }
            // D-CMP-1: a guest on the heroes' side has one bar, whatever it is.
            _ if crate::complications::guest_kind(u.kind, side) && bars != 1 => {
                errors.push(format!("{}: a guest on the heroes' side has one bar (D-CMP-1)", at("bars")))
            }
            Kind::Boss if side >= 1 && !(2..=5).contains(&bars) => {
                errors.push(format!("{}: a Boss has 2 to 5 bars (D-EN-14)", at("bars")))
            }
            Kind::Boss if stances.len() != 3 => {
                errors.push(format!("{}: a Boss has three Stances (D-EN-11)", at("stances")))
            }
            // D-EN-3, D-EN-10: a Stooge group has one Stance and one bar (Super Stooges two).
            Kind::Stooges if stances.len() != 1 || !(1..=2).contains(&bars) => errors.push(format!(
                "{}: a Stooge group has one Stance and one bar (Super Stooges two) (D-EN-3, D-EN-10)",
                at("stances")
            )),
            Kind::Hero if frantic && (stances.len() != 9 || !(1..=5).contains(&bars)) => {
                errors.push(format!("{}: a Frantic hero has three Forms and three Styles (D-HC-5)", at("forms")))
            }
            Kind::Hero if !frantic && (stances.is_empty() || stances.len() > 3 || !(1..=5).contains(&bars)) => errors
                .push(format!("{}: a Hero has one to three Stances and 1 to 5 bars (D-HC-1, D-CMP-2)", at("stances"))),
            _ => {}
        }
        let mut archetypes = Vec::new();
        let mut abilities = Vec::new();
        for a in &u.frantic {
            match content.archetypes.iter().position(|x| x.id == *a) {
                Some(i) => abilities.push((i, Variant::Frantic)),
                None => errors.push(format!("{}: no Archetype {a:?}", at("frantic"))),
            }
        }
        for a in &u.archetypes {
            match content.archetypes.iter().position(|x| x.id == *a) {
                Some(i) => archetypes.push(i),
                None => errors.push(format!("{}: no Archetype {a:?}", at("archetypes"))),
            }
        }
        let style_of = |st: &Stance| st.style.map(|i| content.styles[i].archetype.as_str());
        let of_any = |ids: &[usize], st: &Stance| {
            style_of(st).is_none_or(|a| ids.iter().any(|&i| content.archetypes[i].id == a))
        };
        // D-EN-2, §2.4, §2.5: Boss Archetypes and one-Boss Styles are for enemies made as
        // Warriors or Bosses.
        if u.kind == Kind::Hero || u.kind == Kind::Stooges {
            if archetypes
                .iter()
                .chain(abilities.iter().map(|(a, _)| a))
                .any(|&a| crate::content::boss_file::is_boss(content, a))
            {
                errors.push(format!("{}: a Boss Archetype is for Bosses and Warriors (D-EN-2)", at("archetypes")));
            }
            if stances.iter().any(|st| {
                st.style.is_some_and(|i| crate::content::boss_file::boss_style(content, i))
                    || crate::content::boss_file::boss_form(content, st.form)
            }) {
                errors.push(format!("{}: that Style belongs to one Boss (rules/dojo.md §2.5)", at("stances")));
            }
        }
        match (u.kind, archetypes.len()) {
            (_, 0) => {}
            // D-HC-3: a Focused hero's Styles all come from its Archetype; D-HC-4: a Fused hero's
            // from its two, at least one from each.
            (Kind::Hero, 1 | 2) => {
                if !stances.iter().all(|st| of_any(&archetypes, st)) {
                    errors.push(format!("{}: a Style from another Archetype (D-HC-3, D-HC-4)", at("archetypes")));
                }
                let styled = stances.iter().any(|st| st.style.is_some());
                if archetypes.len() == 2
                    && styled
                    && !archetypes
                        .iter()
                        .all(|&a| stances.iter().any(|st| style_of(st) == Some(content.archetypes[a].id.as_str())))
                {
                    errors.push(format!("{}: a Fused hero has a Style of each Archetype (D-HC-4)", at("archetypes")));
                }
            }
            // D-EN-11: a Boss has a Style of its Archetype (of a Boss Archetype, one of the Styles
            // it lists, §2.4); D-EN-2: a Warrior any Fused ability.
            (Kind::Boss, 1) => {
                let a = archetypes[0];
                let needs = content.archetypes[a].boss.as_ref().is_none_or(|l| !l.is_empty());
                if needs
                    && stances.iter().any(|st| st.style.is_some())
                    && !stances
                        .iter()
                        .any(|st| st.style.is_some_and(|i| crate::content::boss_file::fits(content, a, i)))
                {
                    errors.push(format!("{}: a Boss has a Style of its Archetype (D-EN-11)", at("archetypes")));
                }
            }
            (Kind::Warrior, 1) => {}
            // D-EN-3: Stooges have no Archetype ability; D-EN-10: Super Stooges a Fused one.
            (Kind::Stooges, 1) if bars == 2 => {}
            (Kind::Stooges, _) => errors.push(format!(
                "{}: only Super Stooges (two bars) have an Archetype (D-EN-3, D-EN-10)",
                at("archetypes")
            )),
            _ => errors.push(format!("{}: too many Archetypes (D-HC-1, D-EN-2)", at("archetypes"))),
        }
        if let Some(b) = &u.build {
            if matches!(u.kind, Kind::Warrior | Kind::Boss) {
                errors.push(format!("{}: Warriors and Bosses have no Build (D-EN-2, D-EN-12)", at("build")));
            } else if !content.builds.iter().any(|x| x.id == *b) {
                errors.push(format!("{}: no Build {b:?}", at("build")));
            }
        }
        let variant = if u.kind == Kind::Hero && archetypes.len() == 1 { Variant::Focused } else { Variant::Fused };
        // D-CW-2: the Default Bonus is the heroes' side's (a hero gone over to the enemies, D-CMP-3,
        // leaves it behind; a guest, D-CMP-1, never had it). D-G-03: +2 on every bar it has.
        let bar_max = hp + if bonus && u.kind == Kind::Hero && side == 0 { 2 } else { 0 };
        let p = Pos::new(u.at[0], u.at[1]);
        if !grid.contains(p) || grid.get(p).copied().flatten() == Some(Obstacle::Wall) {
            errors.push(format!("{}: {:?} is not an open square of the map", at("at"), u.at));
        }
        if out.iter().any(|x: &Unit| x.at == Some(p)) {
            errors.push(format!("{}: two units on {:?}", at("at"), u.at));
        }
        if out.iter().any(|x: &Unit| *x.id == *u.id) {
            errors.push(format!("{}: the id is taken", at("id")));
        }
        // D-RNG-5: the Giant's block, the Vehicle's shape.
        match crate::big::offsets_for(&u.archetypes, &u.shape) {
            Ok(Some(o)) => shapes.push((out.len() as u8, u.archetypes.iter().any(|a| a == "vehicle"), o)),
            Ok(None) => {}
            Err(e) => errors.push(format!("{}: {e}", at("shape"))),
        }
        let mut tokens = [0; 12];
        for (k, n) in &u.tokens {
            match Token::parse(k) {
                Some(t) if t != Token::Challenge && (0..=99).contains(n) => tokens[t.index()] = *n,
                _ => errors.push(format!("{}: {k} = {n} is not a token count (0-99)", at("tokens"))),
            }
        }
        let broken = if u.out { bars } else { u.broken.unwrap_or(0) };
        let cur = if u.out { 0 } else { u.hp.unwrap_or(bar_max) };
        if !u.out && (broken >= bars || !(1..=bar_max).contains(&cur)) {
            errors.push(format!("{}: hp 1 to {bar_max}, fewer broken bars than bars", at("hp")));
        }
        meter.add(side, bars as u32);
        // D-CMP-1: each guest brings the enemies one more slot, any of them may fill.
        if crate::complications::guest_kind(u.kind, side) {
            meter.add_open(1, 1);
            // D-CMP-4: in a three-way battle each enemy team has a slot for each of the heroes'.
            if sides > 2 {
                meter.add_open(2, 1);
            }
        }
        out.push(Unit {
            id: u.id.as_str().into(),
            name: u.name.clone().unwrap_or_else(|| u.id.clone()),
            side: side as u8,
            kind: u.kind,
            at: Some(p),
            bar_max,
            bars,
            broken,
            hp: cur,
            shield: u.shield.unwrap_or(0).clamp(0, 99),
            tokens,
            challenge: None,
            stances,
            archetypes: if frantic { abilities } else { archetypes.iter().map(|&a| (a, variant)).collect() },
            build: u.build.clone(),
            // D-G-40: before its first turn a unit stands in the first Stance listed.
            stance: Some(0),
            last_stance: None,
            pool: Pool::of(u.pool.iter().copied()),
            out: u.out,
            spares: Vec::new(),
        });
    }
    for spanned in units {
        let u = spanned.get_ref();
        if let Some(c) = &u.challenge {
            match out.iter().position(|x| *x.id == **c) {
                Some(ci) => {
                    if let Some(x) = out.iter_mut().find(|x| *x.id == *u.id) {
                        x.challenge = Some(ci as u8);
                    }
                }
                None => errors.push(format!("{path}: unit {}: field `challenge`: no unit {c}", u.id)),
            }
        }
    }
    // D-OBS-1: Copies stand on empty squares (a unit, a Wall or another Copy fills one).
    let mut copies: Vec<(Pos, u8)> = Vec::new();
    for spanned in units {
        let u = spanned.get_ref();
        let Some(owner) = out.iter().position(|x| *x.id == *u.id) else { continue };
        for c in &u.copies {
            let p = Pos::new(c[0], c[1]);
            let full = !grid.contains(p)
                || grid.get(p).copied().flatten() == Some(Obstacle::Wall)
                || out.iter().any(|x| x.at == Some(p))
                || copies.iter().any(|x| x.0 == p);
            if full {
                errors.push(format!("{path}: unit {}: field `copies`: {c:?} is not an empty square", u.id));
            } else {
                if let Some(cell) = grid.get_mut(p) {
                    *cell = None;
                }
                copies.push((p, owner as u8));
            }
        }
    }
    for side in 0..sides as u8 {
        if !out.iter().any(|x| x.side == side) {
            errors.push(format!("{path}: nobody on the {} side", SIDES[side as usize]));
        }
    }
    if out.len() > 24 {
        errors.push(format!("{path}: {} units; at most 24", out.len()));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut state = State {
        content: content.clone(),
        options: Arc::new(options),
        map: grid,
        units: out,
        meter,
        round: 0,
        turn: None,
        marks: TurnMarks::default(),
        returns_asked: false,
        stakes: Vec::new(),
        flow: Vec::new(),
        fallen: Vec::new(),
        outcome: None,
        copies,
        standing_in: Vec::new(),
        songs: Vec::new(),
        members: Vec::new(),
        favors: Vec::new(),
        shapes,
    };
    // D-RNG-5: a big unit's squares are all on the map and free.
    let big = crate::big::check(&state);
    if !big.is_empty() {
        return Err(big
            .into_iter()
            .map(|(u, e)| {
                let id = &state.u(u).id;
                let line = units
                    .iter()
                    .find(|x| *x.get_ref().id == **id)
                    .map_or(0, |x| fray_core::scenario::line_of(text, x.span().start));
                format!("{path}:{line}: unit {id}: field `at`: {e}")
            })
            .collect());
    }
    // D-EN-4: with `stooge-figures`, every Stooge of a group stands on the map.
    crate::figures::place_members(&mut state);
    Ok(state)
}
