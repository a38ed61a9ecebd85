//! The `--cp` grammar: parsing, errors and the round trip through `Display`.

use super::*;

#[test]
fn grammar() {
    assert_eq!(CpConfig::parse("default").unwrap(), CpConfig::default());
    let c = CpConfig::parse("no-backjump, no-shaving,heuristic=min-offer").unwrap();
    assert!(!c.backjump && !c.shaving && c.preemption);
    assert_eq!(c.heuristic, Heuristic::MinOffer);
    let c = CpConfig::parse("basic,preemption,shave-limit=5,shaving,shave-depth=4,refutation").unwrap();
    assert!(c.preemption && c.shaving && !c.backjump && c.refutation && !c.rechoose);
    assert_eq!((c.shave_limit, c.shave_depth), (5, 4));
    let c = CpConfig::parse("no-neighbour-ties").unwrap();
    assert!(!c.neighbour_ties && CpConfig::default().neighbour_ties);
    assert_eq!(c.to_string(), "heuristic=domain-then-gap,no-neighbour-ties");
    let c = CpConfig::parse("near-forced=3").unwrap();
    assert_eq!(c.near_forced, 3);
    assert_eq!(CpConfig::parse(&c.to_string()).unwrap(), c);
    assert!(CpConfig::parse("near-forced=-1").is_err());
    let c = CpConfig::parse("tile-slack=-2,rechoose,heuristic=domain-then-wdeg").unwrap();
    assert_eq!((c.tile_slack, c.rechoose, c.heuristic), (-2, true, Heuristic::DomainThenWdeg));
    assert_eq!(CpConfig::parse(&c.to_string()).unwrap(), c);
    assert!(CpConfig::parse("tile-slack=x").is_err());
    assert_eq!(CpConfig::parse(&c.to_string()).unwrap(), c);
    let e = CpConfig::parse("no-backjmp").unwrap_err();
    assert!(e.to_string().starts_with("bad --cp item `no-backjmp`: unknown component"), "{e}");
    assert!(CpConfig::parse("heuristic=fast").is_err());
    assert!(CpConfig::parse("shave-limit=0").is_err());
    assert!(CpConfig::parse("speed=9").is_err());
    assert!(CpConfig::parse("backjump,,shaving").is_err());
    let c = CpConfig::parse("edge-filter-above=70%,edge-filter-waves=2").unwrap();
    assert_eq!((c.edge_filter_above, c.edge_filter_waves), (Bottom::Percent(70), 2));
    assert_eq!(c.to_string(), "heuristic=domain-then-gap,edge-filter-above=70%,edge-filter-waves=2");
    assert_eq!(CpConfig::parse(&c.to_string()).unwrap(), c);
    assert!(CpConfig::parse("edge-filter-above=120%").is_err() && CpConfig::parse("edge-filter-waves=x").is_err());
    for (spec, want) in [("bottom=40", Bottom::Cells(40)), ("bottom=60%", Bottom::Percent(60))] {
        let c = CpConfig::parse(&format!("{spec},bottom-order=static")).unwrap();
        assert_eq!((c.bottom, c.bottom_order), (want, BottomOrder::Static), "{spec}");
        assert_eq!(CpConfig::parse(&c.to_string()).unwrap(), c);
    }
    for (name, order) in [("row", BottomOrder::Row), ("col", BottomOrder::Col), ("sweep", BottomOrder::Sweep)] {
        let c = CpConfig::parse(&format!("bottom=100%,bottom-order={name}")).unwrap();
        assert_eq!(c.bottom_order, order);
        assert_eq!(CpConfig::parse(&c.to_string()).unwrap(), c);
    }
    assert_eq!(Bottom::Percent(60).cells(81), 48);
    let c = CpConfig::parse("bottom=auto").unwrap();
    assert_eq!((c.bottom, c.bottom.cells(81)), (Bottom::Auto, 48));
    assert_eq!(CpConfig::parse(&c.to_string()).unwrap(), c);
    for bad in ["bottom=101%", "bottom=x", "bottom=-1", "bottom-order=rows", "edge-filter-above=auto"] {
        assert!(CpConfig::parse(bad).is_err(), "{bad}");
    }
}
