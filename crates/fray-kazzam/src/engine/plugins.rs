//! The one place that names every class, role and implement module for the core rules: it
//! fills the hook table ([`crate::engine::hooks`]) from each one's `register`. The order of the
//! calls below decides nothing (each listener carries its own order); a new class adds one line.
//!
//! A match's table holds the listeners of the classes in it ([`Present`]): a class nobody plays
//! keeps only its power and Effect hooks and its bundles, so its listeners, menu entries and
//! checks cost nothing at every step, turn and menu (issue 12: listeners registered from what
//! is in the match).

use crate::content::powers::Powers;
use crate::engine::hooks::{Registry, Table};
use crate::engine::ids::UnitKind;
use crate::engine::records::features::Feature;
use crate::engine::state::Unit;

/// The classes a match's listeners are kept for: one bit per class of
/// [`crate::engine::setup::CLASSES`], and one set by any class feature (the class features'
/// module, `features.rs`, plays whenever any class is present).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Present(u16);

impl Present {
    /// Every class: the table of a match whose classes cannot be told from its units.
    pub const ALL: Present = Present(u16::MAX);
    const FEATURES: u16 = 1 << 15;

    /// The classes the units of a match bring in, from their powers (each class power names its
    /// class) and class features. Anything else a class leaves on a unit before play (a carried
    /// Elixir, a charm, a placed trap, a summoned creature, a lingering effect, charge tokens,
    /// Special Ward) is read as every class being present, so that nothing is ever left out.
    pub fn of(units: &[Unit], powers: &Powers) -> Present {
        let mut bits = 0u16;
        for u in units {
            let unusual = !matches!(u.kind, UnitKind::Athlete | UnitKind::Creep)
                || u.brewer != Default::default()
                || u.charmed != Default::default()
                || u.placed.is_some()
                || u.special_ward != 0
                || u.special_from.is_some()
                || !u.counters.is_empty()
                || !u.armed.is_empty()
                || !u.triggered_features.is_empty()
                || u.statuses.iter().any(|st| matches!(st.duration, crate::rules::statuses::Duration::Other(_)));
            if unusual {
                return Present::ALL;
            }
            for &p in u.powers.iter().chain(&u.spent) {
                match powers.get(p).class.as_deref() {
                    None => {}
                    Some(class) => match class_bit(class) {
                        Some(b) => bits |= b,
                        None => return Present::ALL,
                    },
                }
            }
            for f in u.features.iter().chain(&u.learned) {
                bits |= Present::FEATURES;
                match feature_class(*f).and_then(class_bit) {
                    Some(b) => bits |= b,
                    None => return Present::ALL,
                }
            }
        }
        Present(bits)
    }

    /// Whether `class` (a name of [`crate::engine::setup::CLASSES`]) is in the match; a name not
    /// among them is taken as present.
    pub fn has(self, class: &str) -> bool {
        class_bit(class).is_none_or(|b| self.0 & b != 0)
    }

    /// Whether the class features' module plays: with any class feature, or any class at all.
    fn features(self) -> bool {
        self.0 != 0
    }
}

fn class_bit(class: &str) -> Option<u16> {
    crate::engine::setup::CLASSES.iter().position(|c| *c == class).map(|i| 1 << i)
}

/// The class whose feature `f` is (the rulebook's section it comes from).
fn feature_class(f: Feature) -> Option<&'static str> {
    use Feature::*;
    Some(match f {
        Duelist | Brawler | TeamUp | Terror | Jinxer => "hexer",
        PiercingShot | RicochetShot | SeekingShot => "wandslinger",
        SpellwarpSniper | PortalBrawler | SelfLift | LiftSpecialist | TeleportationSpecialist | WarpSpecialist => {
            "porter"
        }
        SpecialWard | ImprovedWardmaster | MotileWard | ReflectiveWard | CapacitiveWard => "wardmaster",
        Cheerful | Creative | Lasting => "charmer",
        Seer | Scryer | ImprovedScryer | ImprovedSeer | Empath | ImprovedEmpath => "diviner",
        SwordHold | Whirling | FocusedBlade | StatusThief | GuardlessBlade | DirectionalShield | ConsumingFocus
        | Electrified | LongArm | Regenerative | MistyCharge => "shivering-sword",
        TinkerArmor | TinkerCloak | ImprovedTrapsCharge | ImprovedTrapsDamage | ImprovedTrapsResist | Redirecting
        | Absorbing => "tinker",
        ImprovedAtWills => "brewer",
        Commander
        | AdvancedCommander
        | Collector
        | CompletionistCollector
        | SpittingTree
        | FlamePig
        | Scalehound
        | Conjuror
        | MassConjuror
        | Kerpoof
        | Giraffape
        | Nettlekin => "tamer",
        Listed(_) => return None,
    })
}

/// The hook table of the matches with the classes `present`, built the first time it is asked
/// for and kept for the rest of the program. A table depends on nothing but `present` (it holds
/// functions), so every match with the same classes shares one; there are at most as many as
/// sets of classes played, each a few kilobytes.
pub fn table_for(present: Present) -> &'static Table {
    static TABLES: std::sync::Mutex<Vec<(Present, &'static Table)>> = std::sync::Mutex::new(Vec::new());
    let mut tables = TABLES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&(_, t)) = tables.iter().find(|(p, _)| *p == present) {
        return t;
    }
    let t: &'static Table = Box::leak(Box::new(table(present)));
    tables.push((present, t));
    t
}

/// The hook table of a match with the classes `present`.
pub fn table(present: Present) -> Table {
    let mut r = Registry::default();
    crate::rules::attack::register(&mut r);
    crate::rules::summons::register(&mut r);
    crate::rules::creeps::register(&mut r);
    crate::rules::creeps::golem::register(&mut r);
    crate::rules::creeps::lost_souls::register(&mut r);
    crate::rules::creep_tricks::register(&mut r);
    crate::rules::creeps::squid::register(&mut r);
    crate::rules::curses::register(&mut r);
    crate::rules::contagion::register(&mut r);
    crate::rules::modifiers::register(&mut r);
    crate::rules::zones::register(&mut r);
    crate::engine::triggers::register(&mut r);
    let class = |r: &mut Registry, dormant: bool, register: fn(&mut Registry)| {
        r.set_dormant(dormant);
        register(r);
        r.set_dormant(false);
    };
    let away = |c: &str| !present.has(c);
    class(&mut r, !present.features(), crate::classes::features::register);
    class(&mut r, away("brewer"), crate::classes::brewer::register);
    class(&mut r, away("charmer"), crate::classes::charmer::register);
    class(&mut r, away("diviner"), crate::classes::diviner::register);
    class(&mut r, away("diviner"), crate::classes::diviner::empathy::register);
    class(&mut r, away("hexer"), crate::classes::hexer::register);
    class(&mut r, away("porter"), crate::classes::porter::register);
    class(&mut r, away("porter"), crate::classes::porter::removal::register);
    class(&mut r, away("porter"), crate::classes::porter::warp_origin::register);
    class(&mut r, away("shivering-sword"), crate::classes::shivering_sword::register);
    class(&mut r, away("tamer"), crate::classes::tamer::register);
    class(&mut r, away("tinker"), crate::classes::tinker::register);
    class(&mut r, away("tinker"), crate::classes::tinker::pest::register);
    class(&mut r, away("tinker"), crate::classes::tinker::robes::register);
    class(&mut r, away("wandslinger"), crate::classes::wandslinger::register);
    class(&mut r, away("wardmaster"), crate::classes::wardmaster::register);
    crate::implements::advanced::register(&mut r);
    crate::roles::boosts::register(&mut r);
    crate::roles::role_actions::register(&mut r);
    crate::roles::specialists::register(&mut r);
    crate::roles::defender_controller::register(&mut r);
    crate::roles::striker::register(&mut r);
    r.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::content::builtin;
    use crate::engine::hooks::Trigger;
    use crate::engine::options::TableOptions;
    use std::sync::Arc;

    fn rules_of(setup: crate::engine::setup::Setup) -> Vec<&'static str> {
        let s = crate::engine::setup::build(setup).unwrap();
        crate::engine::hooks::table(&s).listeners().into_iter().map(|(_, _, rule)| rule).collect()
    }

    #[test]
    fn a_match_keeps_the_listeners_of_its_classes_only() {
        let content = Arc::new(Content::builtin());
        // The default match: athletes with the book's example powers and no class.
        let plain = rules_of(builtin::default_setup(&content, TableOptions::default()).unwrap());
        assert!(!plain.contains(&"jinxer"), "no Hexer, no chant checks: {plain:?}");
        assert!(!plain.contains(&"bonded-futures"), "no Brewer");
        assert!(!plain.contains(&"seer"), "no class features");
        assert!(plain.contains(&"K-CAI-1"), "the core rules' listeners stay (the Creep AI)");
        // A Tamer's team brings in the Tamer's listeners (and the class features'), and no others.
        let tamer = include_str!("../../../../examples/kazzam/tamer.toml");
        let setup =
            builtin::team_setup(&content, ("tamer.toml", tamer), ("tamer.toml", tamer), TableOptions::default())
                .unwrap();
        let with_tamer = rules_of(setup);
        assert!(with_tamer.contains(&"tamer") && with_tamer.contains(&"kerpoof"), "{with_tamer:?}");
        assert!(!with_tamer.contains(&"jinxer"), "still no Hexer");
        assert!(with_tamer.len() > plain.len());
    }

    #[test]
    fn a_class_feature_or_anything_unusual_brings_its_class_in() {
        let content = Arc::new(Content::builtin());
        let mut setup = builtin::default_setup(&content, TableOptions::default()).unwrap();
        setup.units[0].0.features = vec!["jinxer".into()];
        let s = crate::engine::setup::build(setup).unwrap();
        let rules: Vec<_> = crate::engine::hooks::table(&s).listeners().into_iter().map(|(p, _, r)| (p, r)).collect();
        assert!(rules.contains(&(Trigger::StepDone, "jinxer")), "{rules:?}");
        // A summoned creature on the map before play: every class is kept.
        let mut setup = builtin::default_setup(&content, TableOptions::default()).unwrap();
        setup.units[0].0.kind = Some("summon".into());
        let s = crate::engine::setup::build(setup).unwrap();
        let all = crate::engine::hooks::table(&s).listeners().len();
        assert_eq!(all, table(Present::ALL).listeners().len());
    }
}
