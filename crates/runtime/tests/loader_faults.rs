//! Loader paths (relocatable .o and linked .co, code object v4 and v5) and
//! the fault reports: out-of-range access, instruction budget, invalid
//! instruction, wrong argument lists.

use risa_runtime::args::ArgValue::{self, Buffer, I32};
use risa_runtime::error::KernelError;
use risa_runtime::gcn::{launch, GcnObject};
use risa_runtime::{LaunchConfig, RunError};
use std::path::PathBuf;

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(rel),
    )
    .unwrap()
}

fn fbuf(v: &[f32]) -> ArgValue {
    Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}

fn cfg(n: u32) -> LaunchConfig {
    let mut c = LaunchConfig::new([n, 1, 1], 1);
    c.threads = 2;
    c
}

fn vadd_args(n: usize, count: i32) -> Vec<ArgValue> {
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
    vec![fbuf(&a), fbuf(&b), Buffer(vec![0; 4 * n]), I32(count)]
}

#[test]
fn linked_and_relocatable_objects_agree() {
    for (o, co) in [("gcn-v5/gfx900/vadd.o", "gcn-v5/gfx900/vadd.co")] {
        let mut outs = Vec::new();
        for f in [o, co] {
            let obj = GcnObject::load(&bytes(f)).unwrap();
            assert_eq!(obj.version, 5, "{f}");
            let r = launch(
                &obj,
                obj.kernel(None).unwrap(),
                &vadd_args(256, 256),
                &cfg(256),
            )
            .unwrap();
            outs.push(r.buffers[2].1.clone());
        }
        assert_eq!(outs[0], outs[1]);
        let c: Vec<f32> = outs[0]
            .chunks(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(c[10], 15.0);
    }
    // A v4 object with relocations against .rodata (libm tables), linked and not.
    let a: Vec<f32> = (0..64).map(|i| i as f32 * 0.37 - 11.0).collect();
    let mut outs = Vec::new();
    for f in ["gcn/gfx900/libm_float.o", "gcn/gfx900/libm_float.co"] {
        let obj = GcnObject::load(&bytes(f)).unwrap();
        assert_eq!(obj.version, 4);
        let r = launch(
            &obj,
            obj.kernel(None).unwrap(),
            &[fbuf(&a), Buffer(vec![0; 12 * 64])],
            &cfg(64),
        )
        .unwrap();
        outs.push(r.buffers[1].1.clone());
    }
    assert_eq!(outs[0], outs[1]);
}

#[test]
fn out_of_range_access_is_reported() {
    let obj = GcnObject::load(&bytes("gcn/gfx900/vadd.o")).unwrap();
    // n = 100 but the buffers hold 64 floats: lane 0 of work-group 1 reads past a.
    let args = vadd_args(64, 100);
    let err = launch(&obj, obj.kernel(None).unwrap(), &args, &cfg(128)).unwrap_err();
    let RunError::Fault(f, result) = err else {
        panic!("expected a fault, got {err}")
    };
    assert_eq!(f.kernel, "vadd");
    assert_eq!(f.group, [1, 0, 0]);
    assert_eq!(f.wave, 0);
    assert_eq!(f.lane, Some(0));
    assert!(f.instr.starts_with("global_load_dword"), "{}", f.instr);
    assert!(f.addr.is_some());
    assert!(
        f.message.contains("outside every allocation"),
        "{}",
        f.message
    );
    let text = f.to_string();
    assert!(
        text.contains("work-group (1, 0, 0), wave 0, lane 0"),
        "{text}"
    );
    // Group 0 completed before the fault or not at all; its buffer is still readable.
    assert_eq!(result.buffers.len(), 3);
}

#[test]
fn endless_loop_hits_the_budget() {
    let obj = GcnObject::load(&bytes("gcn/tahiti/loop_sum.o")).unwrap();
    let a = Buffer(vec![0; 4 * 64]);
    // n = 2^31-1 with a[i + k] read for every k: the loop runs far past the budget
    // (or faults reading past the buffer first; the budget is lower).
    let mut c = cfg(64);
    c.max_instructions = 10_000;
    let args = [a, Buffer(vec![0; 256]), I32(i32::MAX)];
    let err = launch(&obj, obj.kernel(None).unwrap(), &args, &c).unwrap_err();
    let RunError::Fault(f, _) = err else {
        panic!("expected a fault")
    };
    assert!(
        f.message.contains("budget") || f.message.contains("outside"),
        "{}",
        f.message
    );
    // With a large buffer the budget is what stops it.
    let args = [
        Buffer(vec![0; 4 << 20]),
        Buffer(vec![0; 256]),
        I32(i32::MAX),
    ];
    let RunError::Fault(f, _) = launch(&obj, obj.kernel(None).unwrap(), &args, &c).unwrap_err()
    else {
        panic!()
    };
    assert!(
        f.message.contains("instruction budget of 10000"),
        "{}",
        f.message
    );
}

#[test]
fn invalid_instruction_is_reported() {
    let mut b = bytes("gcn/fiji/vadd.o");
    let elf = risa_elf::Elf::parse(&b).unwrap();
    let text = elf.section_by_name(".text").unwrap().offset as usize;
    drop(elf);
    // The first word of the kernel becomes 0xffffffff, which no GCN 1.2 encoding matches.
    b[text..text + 4].copy_from_slice(&[0xff; 4]);
    let obj = GcnObject::load(&b).unwrap();
    let RunError::Fault(f, _) = launch(
        &obj,
        obj.kernel(None).unwrap(),
        &vadd_args(64, 64),
        &cfg(64),
    )
    .unwrap_err() else {
        panic!()
    };
    assert_eq!(f.pc, 0);
    assert!(f.message.contains("invalid instruction"), "{}", f.message);
}

#[test]
fn wrong_arguments_are_rejected_before_running() {
    let obj = GcnObject::load(&bytes("gcn/hawaii/vadd.o")).unwrap();
    let k = obj.kernel(None).unwrap();
    let mut args = vadd_args(64, 64);
    args.pop();
    let e = launch(&obj, k, &args, &cfg(64)).unwrap_err();
    assert!(
        matches!(&e, RunError::Args(m) if m.to_string().contains("takes 4 arguments, 3 given")),
        "{e}"
    );
    let mut args = vadd_args(64, 64);
    args[3] = Buffer(vec![0; 4]);
    let e = launch(&obj, k, &args, &cfg(64)).unwrap_err();
    assert!(
        matches!(&e, RunError::Args(m) if m.to_string().contains("argument 3 is a 4-byte value, but a buffer of 4 bytes was given")),
        "{e}"
    );
    let mut args = vadd_args(64, 64);
    args[0] = I32(1);
    let e = launch(&obj, k, &args, &cfg(64)).unwrap_err();
    assert!(
        matches!(&e, RunError::Args(m) if m.to_string().contains("argument 0 is a buffer")),
        "{e}"
    );
    // Multi-kernel objects need a name.
    let obj = GcnObject::load(&bytes("gcn/gfx900/multi_kernel.o")).unwrap();
    let e = obj.kernel(None).unwrap_err();
    assert!(matches!(&e, KernelError::Ambiguous { count: 3, .. }), "{e}");
    assert!(e.to_string().contains("choose one with --kernel"), "{e}");
    let e = obj.kernel(Some("nope")).unwrap_err();
    assert!(
        matches!(&e, KernelError::NotFound { name, all } if name == "nope" && all.contains("scale")),
        "{e}"
    );
}

#[test]
fn bad_objects_are_errors() {
    assert!(GcnObject::load(b"not an elf").is_err());
    let b = bytes("gcn/gfx900/vadd.o");
    for cut in [16, 64, 200, b.len() / 2] {
        assert!(GcnObject::load(&b[..cut]).is_err(), "truncated at {cut}");
    }
}

/// Race-free kernels give the same bytes on 1 and 2 host threads, run after run.
#[test]
fn results_do_not_depend_on_thread_count() {
    let n = 1024usize;
    let a: Vec<f32> = (0..n).map(|i| (i as f32 * 0.731).sin() * 100.0).collect();
    for f in [
        "gcn/gfx900/lds_reduce.o",
        "gcn-v5/fiji/lds_reduce.o",
        "gcn/tahiti/scratch_array.o",
    ] {
        let obj = GcnObject::load(&bytes(f)).unwrap();
        let k = obj.kernel(None).unwrap();
        let args = vec![fbuf(&a), Buffer(vec![0; 4 * n])];
        let mut outs = Vec::new();
        for threads in [1, 2, 2, 1] {
            let mut c = cfg(n as u32);
            c.threads = threads;
            outs.push(launch(&obj, k, &args, &c).unwrap().buffers[1].1.clone());
        }
        assert!(outs.windows(2).all(|w| w[0] == w[1]), "{f}");
    }
}

#[test]
fn gfx906_objects_select_gfx906() {
    // e_flags 0x52f (mach 0x2f, sramecc "any") from clang-14 (v4) and
    // clang-19 (v5): the chip, hence its features, comes from the mach.
    for dir in ["gcn", "gcn-v5"] {
        let obj = GcnObject::load(&bytes(&format!("{dir}/gfx906/float_arith.o"))).unwrap();
        assert_eq!(obj.chip.name, "gfx906", "{dir}");
        assert_eq!(obj.chip.mach, 0x2f);
        assert!(obj.chip.target().has(risa_gcn::Feature::named("dl-insts")));
        // The same kernel for gfx900 is another chip without the feature.
        let g9 = GcnObject::load(&bytes(&format!("{dir}/gfx900/float_arith.o"))).unwrap();
        assert_eq!(g9.chip.name, "gfx900");
        assert!(!g9.chip.target().has(risa_gcn::Feature::named("dl-insts")));
    }
}
