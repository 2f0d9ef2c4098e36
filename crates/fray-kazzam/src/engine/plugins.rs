//! The one place that names every class, role and implement module for the core rules: it
//! fills the hook table ([`crate::engine::hooks`]) from each one's `register`. The order of the
//! calls below decides nothing (each listener carries its own order); a new class adds one line.

use crate::engine::hooks::{Registry, Table};

/// The hook table every match plays with.
pub fn table() -> Table {
    let mut r = Registry::default();
    crate::rules::attack::register(&mut r);
    crate::rules::summons::register(&mut r);
    crate::rules::creeps::register(&mut r);
    crate::rules::curses::register(&mut r);
    crate::rules::contagion::register(&mut r);
    crate::rules::modifiers::register(&mut r);
    crate::rules::zones::register(&mut r);
    crate::engine::triggers::register(&mut r);
    crate::classes::features::register(&mut r);
    crate::classes::brewer::register(&mut r);
    crate::classes::charmer::register(&mut r);
    crate::classes::diviner::register(&mut r);
    crate::classes::diviner::empathy::register(&mut r);
    crate::classes::hexer::register(&mut r);
    crate::classes::porter::register(&mut r);
    crate::classes::porter::removal::register(&mut r);
    crate::classes::porter::warp_origin::register(&mut r);
    crate::classes::shivering_sword::register(&mut r);
    crate::classes::tamer::register(&mut r);
    crate::classes::tinker::register(&mut r);
    crate::classes::tinker::pest::register(&mut r);
    crate::classes::tinker::robes::register(&mut r);
    crate::classes::wandslinger::register(&mut r);
    crate::classes::wardmaster::register(&mut r);
    crate::implements::advanced::register(&mut r);
    crate::roles::boosts::register(&mut r);
    crate::roles::role_actions::register(&mut r);
    crate::roles::specialists::register(&mut r);
    crate::roles::defender_controller::register(&mut r);
    crate::roles::striker::register(&mut r);
    r.finish()
}
