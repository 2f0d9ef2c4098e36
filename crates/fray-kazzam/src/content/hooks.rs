//! The hook names each rule module plays, as data. Content checks a power's `hook` (and an
//! Effect primitive's) against these lists when it is loaded; each module re-exports its own
//! list at its old name (`crate::classes::brewer::POWER_HOOKS`...).

/// Effect hooks written in Rust (brews.rs adds its own, `brewer::HOOKS`).
pub const ATTACK_EFFECT: &[&str] = &[
    "save-below-roll-takes-out",
    "opportunities-from-adjacent",
    "take-out",
    "spreads",
    "while-in-sight",
    "empathic-wave",
];

/// Effect hooks brews add to the vocabulary.
pub const BREWER_EFFECT: &[&str] = &[
    "nullify",
    "hardening",
    "target-attack",
    "target-protect",
    "fascination",
    "extra-move",
    "lightning",
    "luck",
    "wild-rage",
    "status-exchange",
    "bonded-futures",
    "salamander",
    "takeoff-blast",
    "takeoff-lift",
    "enlarge",
];

/// Effect hooks this module plays.
pub const TINKER_EFFECT: &[&str] = &["end-marks", "bag-of-tricks", "explode", "curtain", "irenas-cloak"];

/// Effect hooks this module plays: `drop-object` as the Effect applies; `repeat-attack` and
/// `fork` once the hit's Effect is over ([`after_hit`]), even if the hit Took the target Out.
pub const WANDSLINGER_EFFECT: &[&str] = &["drop-object", "repeat-attack", "fork"];

/// Effect hooks played here.
pub const PORTER_EFFECT: &[&str] = &["warp", "reinforce", "bend-space", "rip", "rip-teleport"];

/// Effect hooks this module plays.
pub const TAMER_EFFECT: &[&str] = &["goring-tusks", "snatch", "nettle", "conjure", "beast-charm"];

/// Effect hooks this module answers.
pub const SHIVERING_SWORD_EFFECT: &[&str] = &["bullying-blade"];

/// Effect hooks played here.
pub const REMOVAL_EFFECT: &[&str] = &["remove-from-existence"];

/// Power hooks written in Rust.
pub const ACTIONS_POWER: &[&str] = &["reveal", "charge", "swap-places", "reversal-of-fortune", "contingency-jump"];

/// Powers whose rules live here.
pub const FEATURES_POWER: &[&str] = &["change-spell", "use-foreseen", "use-team-foreseen"];

/// Power hooks this module plays.
pub const TRIGGERS_POWER: &[&str] = &[
    "patient-shot",
    "patient-surprise",
    "patient-porcupine",
    "patient-gaze",
    "retribution",
    "i-dont-think-so",
    "resist-reaction",
    "pursue-reaction",
    "push-reaction",
    "keep-walking",
    "punish-reaction",
    "target-lock",
    "kill-switch",
];

/// Power hooks this module plays.
pub const SUMMONS_POWER: &[&str] =
    &["trap", "snap-trap", "reset-traps", "automaton", "disarm-traps", "ward-wall", "specialist-wall", "advanced-trap"];

/// Power hooks this module plays.
pub const TAMER_POWER: &[&str] = &["tamer-summon", "tamer-command", "tamer-territory", "tamer-give-move"];

/// Power hooks brews add: making, drinking and passing Elixirs.
pub const BREWER_POWER: &[&str] = &["give-elixir", "drink-elixir", "pass-elixir", "recover-brews"];

/// Power hooks this module plays: the Move Action that pulls a tethered creature.
pub const TINKER_POWER: &[&str] = &["tether-pull"];

/// Power hooks this module plays: the host's Move Action that flings the Pest off.
pub const PEST_POWER: &[&str] = &["shake-off-pest"];

/// Power hooks played here.
pub const DIVINER_POWER: &[&str] = &["foresight", "coin-of-fortune", "seeking-hex", "empathic-bond"];

/// Power hooks this module plays.
pub const ROLE_ACTIONS_POWER: &[&str] = &[
    "draw-a-bead",
    "spread-fire",
    "specialist-cloak",
    "specialist-hide",
    "outflank",
    "leader-restore",
    "bust-some-heads",
    "replace-traps",
    "specialist-swipe",
    "change-terrain",
    "boost-square",
    "major-terrain",
    "battlefield-repositioning",
];

/// Power hooks this module plays.
pub const WANDSLINGER_POWER: &[&str] = &["focus", "recovery-shot", "running-shot"];

/// Power hooks played here (Hub Warp's teleports, Basic Kinemancy).
pub const PORTER_POWER: &[&str] = &["hub-jump", "hub-send", "kinemancy", "lift-slide", "short-tunnel"];

/// Power hooks played here (the Free Action use with no roll).
pub const REMOVAL_POWER: &[&str] = &["remove-from-existence-free"];

/// Power hooks this module answers.
pub const SHIVERING_SWORD_POWER: &[&str] = &["ghost-walk", "path-of-blades"];

/// Power hooks this module plays (the Hunter's Role Actions).
pub const CREEPS_POWER: &[&str] = &["manipulate-creeps", "false-flag", "provocation"];

/// Every list of Effect hooks.
pub const EFFECT: &[&[&str]] = &[
    ATTACK_EFFECT,
    BREWER_EFFECT,
    TINKER_EFFECT,
    WANDSLINGER_EFFECT,
    PORTER_EFFECT,
    TAMER_EFFECT,
    SHIVERING_SWORD_EFFECT,
    REMOVAL_EFFECT,
];

/// Every list of power hooks.
pub const POWER: &[&[&str]] = &[
    ACTIONS_POWER,
    FEATURES_POWER,
    TRIGGERS_POWER,
    SUMMONS_POWER,
    TAMER_POWER,
    BREWER_POWER,
    TINKER_POWER,
    PEST_POWER,
    DIVINER_POWER,
    ROLE_ACTIONS_POWER,
    WANDSLINGER_POWER,
    PORTER_POWER,
    REMOVAL_POWER,
    SHIVERING_SWORD_POWER,
    CREEPS_POWER,
];

/// A hook's name as content writes it, checked against one family of lists ([`POWER`] or
/// [`EFFECT`]) and numbered when content loads: the hook table is indexed by that number, not
/// searched by name (issue 12). It reads as its name (`def.hook.as_deref() == Some("warp")`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HookName<const EFFECTS: bool> {
    id: u16,
    name: &'static str,
}

/// A power's `hook`: a named rule in Rust that replaces the usual resolution.
pub type PowerHook = HookName<false>;
/// An Effect primitive's `hook`.
pub type EffectHook = HookName<true>;

impl<const EFFECTS: bool> HookName<EFFECTS> {
    /// The lists this family checks names against.
    fn lists() -> &'static [&'static [&'static str]] {
        if EFFECTS { EFFECT } else { POWER }
    }
    /// How many names the family holds (the hook table's size).
    pub fn count() -> usize {
        Self::lists().iter().map(|l| l.len()).sum()
    }
    /// The hook named `name`, if it is one of the family's.
    pub fn parse(name: &str) -> Option<Self> {
        Self::lists()
            .iter()
            .flat_map(|l| l.iter())
            .enumerate()
            .find(|(_, n)| **n == name)
            .map(|(i, n)| HookName { id: i as u16, name: n })
    }
    /// Its number, unique in its family.
    pub fn id(self) -> usize {
        self.id as usize
    }
    /// Its name.
    pub fn name(self) -> &'static str {
        self.name
    }
}

impl<const EFFECTS: bool> std::ops::Deref for HookName<EFFECTS> {
    type Target = str;
    fn deref(&self) -> &str {
        self.name
    }
}

impl<const EFFECTS: bool> TryFrom<String> for HookName<EFFECTS> {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        Self::parse(&s).ok_or_else(|| format!("unknown hook {s:?}"))
    }
}

impl<const EFFECTS: bool> From<HookName<EFFECTS>> for String {
    fn from(h: HookName<EFFECTS>) -> String {
        h.name.to_string()
    }
}

impl<const EFFECTS: bool> serde::Serialize for HookName<EFFECTS> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name)
    }
}

impl<'de, const EFFECTS: bool> serde::Deserialize<'de> for HookName<EFFECTS> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Self::try_from(s).map_err(serde::de::Error::custom)
    }
}
