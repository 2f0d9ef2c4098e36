//! Table options: where the glossary and the published rules differ (DS-DELTA-*), Fray plays
//! the published rule by default and offers the glossary's as an option
//! (docs/rulings/drawsteel.md).

use serde::{Deserialize, Serialize};

/// Which text a rule follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Text {
    /// The published rules (default).
    #[default]
    Published,
    /// The glossary.
    Glossary,
}

/// Table options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
pub struct Options {
    /// Bleeding (DS-DELTA-1): published 1d6 + level on main actions, triggered actions and
    /// Might/Agility rolls; glossary 1d6 after tests, strikes, actions, maneuvers and triggered
    /// actions.
    pub bleeding: Text,
    /// Critical hits (DS-DELTA-2): published main-action abilities only, extra main action;
    /// glossary any strike or action.
    pub critical: Text,
    /// Initiative (DS-DELTA-3): published — on 6+ the heroes choose who goes first (Fray's
    /// heroes always choose themselves unless `heroes-defer`); glossary — on 6+ heroes first.
    pub initiative: Text,
    /// Push (DS-DELTA-10): published — every square farther; glossary — a straight line away.
    pub push: Text,
    /// Collisions (DS-DELTA-9): published — a creature may pull or slide its target into
    /// itself, a slam that hurts both; glossary — it can't. (A large creature moved into several
    /// smaller ones hurts each of them once and takes the damage once itself under both texts.)
    pub collisions: Text,
    /// Hero tokens on tests (DS-DELTA-6): published — a token rerolls the hero's test just made,
    /// and the new roll stands, better or worse; glossary — a token turns a failed test, or a
    /// success with a consequence, into a plain success.
    pub hero_tokens_on_tests: Text,
    /// Grabbed (DS-DELTA-7): published — the grabber itself may force-move the creature it
    /// holds, and the grab ends when a forced move leaves the two no longer adjacent, whichever
    /// of them was moved;
    /// glossary — a grabbed creature can't be force-moved by anyone, its grabber included.
    pub grabbed: Text,
    /// Hidden (DS-DELTA-8): published — the Hide maneuver hides a creature from each enemy it
    /// has cover or concealment from (others still see it), and its edge and its shelter from
    /// non-area abilities count only against those enemies; glossary — hiding needs concealment
    /// or no enemy with a clear view, and then the creature is hidden from every enemy, with its
    /// edge against anyone.
    pub hidden: Text,
    /// Jumping (DS-DELTA-11): published — a Might or Agility test adds 1 or 2 squares of length
    /// and height, no run-up bonus; glossary — a two-square run-up adds 1 square of length and
    /// height, and a medium Might test 1 (2 on a success with a reward) of length.
    pub jumping: Text,
    /// Offer every ability power roll at a lower tier once it is rolled (DS-GAP-1): the roller
    /// keeps the tier or takes a lower one for all targets. On by default, as the published
    /// rules let any roll be taken lower; off, Fray keeps the tier rolled without asking.
    /// Scenario files leave it off unless they set it (docs/scenarios/drawsteel.md).
    pub offer_lower_tier: bool,
    /// Rounds after which a combat ends anyway (a Fray limit; 0 = none).
    pub round_limit: u32,
    /// Hero tokens the heroes start with (DS-DELTA-6: one per hero by default).
    pub hero_tokens: Option<i32>,
    /// Knock-out (DS-GAP-20): the heroes knock out, rather than kill, every Director creature
    /// (not a minion) their damage brings to 0 Stamina: it lies unconscious and prone, out of
    /// the fight. Off by default: they kill.
    pub knock_out: bool,
    /// Knock-out, the Director's side (DS-GAP-20): the Director's creatures knock out, rather
    /// than kill, a hero their damage would kill (at minus its winded value). Off by default.
    pub knock_out_heroes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            bleeding: Text::Published,
            critical: Text::Published,
            initiative: Text::Published,
            push: Text::Published,
            collisions: Text::Published,
            hero_tokens_on_tests: Text::Published,
            grabbed: Text::Published,
            hidden: Text::Published,
            jumping: Text::Published,
            offer_lower_tier: true,
            round_limit: 20,
            hero_tokens: None,
            knock_out: false,
            knock_out_heroes: false,
        }
    }
}
