//! Cayman kernel arguments where clang puts them: a `long` after a pointer
//! is 8-byte aligned counting from the first explicit argument (KC0[2].W,
//! not KC0[3].X). Compiled live with clang-14 + libclc (skipped, saying so,
//! when they are missing); byte stores to a buffer of odd size.

use risa_runtime::gpu::{Device, KernelArg, Object};
use risa_runtime::LaunchConfig;
use std::process::Command;

/// Compiles `src` for Cayman with clang-14 + libclc into a loaded module,
/// or None (saying so) when they are missing.
fn cayman_module(name: &str, src: &str) -> Option<(Device, risa_runtime::gpu::Module)> {
    let clc = "/usr/lib/clc/cayman-r600--.bc";
    if !std::path::Path::new(clc).exists()
        || Command::new("clang-14").arg("--version").output().is_err()
    {
        eprintln!("skipped: clang-14 and libclc-14 are needed");
        return None;
    }
    let scratch = tempfile::Builder::new()
        .prefix(&format!("risa-cayman-{name}-"))
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let cl = dir.join("k.cl");
    std::fs::write(&cl, src).unwrap();
    let obj = dir.join("k.o");
    let st = Command::new("clang-14")
        .args([
            "-x",
            "cl",
            "-cl-std=CL1.2",
            "-Xclang",
            "-finclude-default-header",
            "-O2",
        ])
        .args(["-target", "r600--", "-mcpu=cayman", "-fintegrated-as"])
        .args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang", clc, "-c"])
        .arg(&cl)
        .arg("-o")
        .arg(&obj)
        .status()
        .unwrap();
    assert!(st.success());
    let o = Object::parse(&std::fs::read(&obj).unwrap()).unwrap();
    let dev = Device::new(o.isa());
    let m = dev.load(o).unwrap();
    Some((dev, m))
}

#[test]
fn long_after_pointer_is_where_clang_reads_it() {
    let Some((dev, m)) = cayman_module(
        "long",
        "__kernel void k(__global int *o, long n, int m) { o[0] = (int)n; o[1] = (int)(n >> 32); o[2] = m; }\n",
    ) else {
        return;
    };
    let out = dev.alloc(12).unwrap();
    let args = [
        KernelArg::Buffer(out),
        KernelArg::Bytes(0x5_0000_0003u64.to_le_bytes().to_vec()),
        KernelArg::Bytes(7u32.to_le_bytes().to_vec()),
    ];
    dev.launch(&m, 0, &args, &LaunchConfig::new([1, 1, 1], 1))
        .unwrap();
    let mut b = [0u8; 12];
    dev.read(out, &mut b).unwrap();
    let w: Vec<u32> = b
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(w, [3, 5, 7]);
}

#[test]
fn byte_stores_fill_a_buffer_of_odd_size() {
    // r600 stores a char as MEM_RAT MSKOR, a read-modify-write of the whole
    // dword: the last byte of a 5-byte buffer is in a dword that must exist.
    let Some((dev, m)) = cayman_module(
        "bytes",
        "__kernel void k(__global uchar *o) { o[get_global_id(0)] = 0xa0 + get_global_id(0); }\n",
    ) else {
        return;
    };
    let out = dev.alloc(5).unwrap();
    let mut cfg = LaunchConfig::new([5, 1, 1], 1);
    cfg.block = [5, 1, 1];
    dev.launch(&m, 0, &[KernelArg::Buffer(out)], &cfg).unwrap();
    let mut b = [0u8; 5];
    dev.read(out, &mut b).unwrap();
    assert_eq!(b, [0xa0, 0xa1, 0xa2, 0xa3, 0xa4]);
}
