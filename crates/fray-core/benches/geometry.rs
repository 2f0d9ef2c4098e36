//! Benchmarks of the geometry underneath every system: reachable squares and line of sight.
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use fray_core::Pos;
use fray_core::geometry::reachable;
use fray_core::sight::sight;

fn arena_walls(p: Pos) -> bool {
    // A 24×16 arena with a few pillars and a wall segment.
    matches!((p.x, p.y), (5, 5) | (6, 5) | (12, 8) | (12, 9) | (12, 10) | (18, 3) | (8, 12))
}

fn bench(c: &mut Criterion) {
    c.bench_function("reachable squares, speed 6, 24x16 arena", |b| {
        b.iter(|| {
            let r = reachable(24, 16, black_box(Pos::new(10, 8)), 6, |p, out| {
                for q in p.neighbours() {
                    if q.x >= 0 && q.y >= 0 && q.x < 24 && q.y < 16 && !arena_walls(q) {
                        out.push((q, if (q.x + q.y) % 7 == 0 { 2 } else { 1 }));
                    }
                }
            });
            black_box(r.cost(Pos::new(14, 10)))
        })
    });
    c.bench_function("line of sight, clear, distance 6", |b| {
        b.iter(|| black_box(sight(black_box(Pos::new(2, 2)), 1, Pos::new(8, 6), 1, arena_walls)))
    });
    c.bench_function("line of sight, behind a wall (worst case)", |b| {
        b.iter(|| black_box(sight(black_box(Pos::new(10, 9)), 1, Pos::new(15, 9), 1, arena_walls)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
