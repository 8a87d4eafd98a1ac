//! The platform `risa` and its devices: one per chip family, with the real
//! chip's figures (AMD's published specifications of each board).

use crate::handle::{self, Kind};
use crate::info::{guard, query, slice, Info};
use opencl_sys::*;
use risa_gcn::Processor;
use risa_runtime::gpu::Isa;
use std::ffi::c_void;
use std::sync::OnceLock;

/// The platform object (there is one).
pub struct Platform;
// SAFETY: the only type of Kind::Platform handles.
unsafe impl handle::Object for Platform {
    const KIND: Kind = Kind::Platform;
}

/// One emulated chip as an OpenCL device.
pub struct Device {
    /// The chip.
    pub chip: &'static Chip,
    /// Its instruction set in the runtime.
    pub isa: Isa,
}

// SAFETY: the only type of Kind::Device handles.
unsafe impl handle::Object for Device {
    const KIND: Kind = Kind::Device;
}

/// A chip's figures.
pub struct Chip {
    /// Short name (`RISA_OPENCL_DEVICES`, `-mcpu`).
    pub key: &'static str,
    /// CL_DEVICE_NAME.
    pub name: &'static str,
    /// Compute units.
    pub compute_units: u32,
    /// Engine clock in MHz.
    pub clock_mhz: u32,
    /// Board memory in MiB.
    pub memory_mib: u64,
    /// LDS per compute unit in bytes.
    pub lds: u64,
    /// Address bits.
    pub address_bits: u32,
    /// Whether the compiler can give the device doubles.
    pub fp64: bool,
    /// Global memory cache line / L2 size in bytes.
    pub l2: u64,
}

/// The chips, in the order devices are listed.
pub const CHIPS: &[Chip] = &[
    // Radeon HD 6970: 24 SIMD engines at 880 MHz, 2 GiB GDDR5, 32 KiB LDS,
    // 512 KiB L2; clang's r600 back end with libclc has no double builtins.
    Chip {
        key: "cayman",
        name: "risa Cayman (Radeon HD 6970)",
        compute_units: 24,
        clock_mhz: 880,
        memory_mib: 2048,
        lds: 32 * 1024,
        address_bits: 32,
        fp64: false,
        l2: 512 * 1024,
    },
    // Radeon HD 7970: 32 CUs at 925 MHz, 3 GiB, 768 KiB L2.
    Chip {
        key: "tahiti",
        name: "risa Tahiti",
        compute_units: 32,
        clock_mhz: 925,
        memory_mib: 3072,
        lds: 64 * 1024,
        address_bits: 64,
        fp64: true,
        l2: 768 * 1024,
    },
    // Radeon R9 290X: 44 CUs at 1000 MHz, 4 GiB, 1 MiB L2.
    Chip {
        key: "hawaii",
        name: "risa Hawaii",
        compute_units: 44,
        clock_mhz: 1000,
        memory_mib: 4096,
        lds: 64 * 1024,
        address_bits: 64,
        fp64: true,
        l2: 1024 * 1024,
    },
    // Radeon R9 Fury X: 64 CUs at 1050 MHz, 4 GiB HBM, 2 MiB L2.
    Chip {
        key: "fiji",
        name: "risa Fiji",
        compute_units: 64,
        clock_mhz: 1050,
        memory_mib: 4096,
        lds: 64 * 1024,
        address_bits: 64,
        fp64: true,
        l2: 2 * 1024 * 1024,
    },
    // Radeon RX Vega 64: 64 CUs at 1546 MHz (boost), 8 GiB HBM2, 4 MiB L2.
    Chip {
        key: "gfx900",
        name: "risa gfx900 (Vega 10)",
        compute_units: 64,
        clock_mhz: 1546,
        memory_mib: 8192,
        lds: 64 * 1024,
        address_bits: 64,
        fp64: true,
        l2: 4 * 1024 * 1024,
    },
    // Radeon VII: 60 CUs at 1800 MHz (peak), 16 GiB HBM2, 4 MiB L2.
    Chip {
        key: "gfx906",
        name: "risa gfx906 (Vega 20)",
        compute_units: 60,
        clock_mhz: 1800,
        memory_mib: 16384,
        lds: 64 * 1024,
        address_bits: 64,
        fp64: true,
        l2: 4 * 1024 * 1024,
    },
];

/// Largest work-group (what AMD's OpenCL reports for these chips; clang's
/// default `.max_flat_workgroup_size`).
pub const MAX_WORK_GROUP: usize = 256;

/// The platform handle.
pub fn platform() -> cl_platform_id {
    static P: OnceLock<usize> = OnceLock::new();
    *P.get_or_init(|| handle::create::<_, c_void>(Platform) as usize) as cl_platform_id
}

/// The device handles `RISA_OPENCL_DEVICES` (comma-separated chip keys;
/// default all) selects.
pub fn devices() -> &'static [cl_device_id] {
    static D: OnceLock<Vec<usize>> = OnceLock::new();
    let v = D.get_or_init(|| {
        let want: Option<Vec<String>> = std::env::var("RISA_OPENCL_DEVICES").ok().map(|s| {
            s.split(',')
                .map(|x| x.trim().to_ascii_lowercase())
                .filter(|x| !x.is_empty())
                .collect()
        });
        CHIPS
            .iter()
            .filter(|c| want.as_ref().is_none_or(|w| w.iter().any(|k| k == c.key)))
            .map(|c| {
                let isa = match c.key {
                    "cayman" => Isa::Cayman,
                    k => Isa::Gcn(Processor::parse(k).expect("chip in the table")),
                };
                handle::create::<_, c_void>(Device { chip: c, isa }) as usize
            })
            .collect()
    });
    // SAFETY: usize and pointers have the same layout.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), v.len()) }
}

/// The device behind a handle.
pub fn device<'a>(d: cl_device_id) -> Option<&'a Device> {
    handle::get::<Device, _>(d)
}

const EXTENSIONS_COMMON: &str = "cl_khr_icd cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics cl_khr_byte_addressable_store";

/// The device's extensions.
pub fn extensions(d: &Device) -> String {
    let mut s = EXTENSIONS_COMMON.to_string();
    if d.chip.fp64 {
        s += " cl_khr_fp64 cl_khr_int64_base_atomics cl_khr_int64_extended_atomics";
    }
    s
}

#[no_mangle]
/// clGetPlatformIDs (also the ICD's clIcdGetPlatformIDsKHR).
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    guard(|| {
        if (num_entries == 0 && !platforms.is_null())
            || (platforms.is_null() && num_platforms.is_null())
        {
            return CL_INVALID_VALUE;
        }
        if !platforms.is_null() {
            // SAFETY: num_entries >= 1.
            unsafe { *platforms = platform() };
        }
        if !num_platforms.is_null() {
            // SAFETY: caller's pointer.
            unsafe { *num_platforms = 1 };
        }
        CL_SUCCESS
    })
}

/// clGetPlatformInfo.
pub unsafe extern "C" fn get_platform_info(
    p: cl_platform_id,
    name: cl_platform_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            if p != platform() && !p.is_null() {
                return Err(CL_INVALID_PLATFORM);
            }
            match name {
                CL_PLATFORM_PROFILE => Ok(Info::Str("FULL_PROFILE".into())),
                CL_PLATFORM_VERSION => Ok(Info::Str(format!(
                    "OpenCL 1.2 risa {}",
                    env!("CARGO_PKG_VERSION")
                ))),
                CL_PLATFORM_NAME => Ok(Info::Str("risa".into())),
                CL_PLATFORM_VENDOR => Ok(Info::Str("risa project".into())),
                CL_PLATFORM_EXTENSIONS => Ok(Info::Str("cl_khr_icd".into())),
                CL_PLATFORM_ICD_SUFFIX_KHR => Ok(Info::Str("risa".into())),
                _ => Err(CL_INVALID_VALUE),
            }
        })
    }
}

fn type_matches(t: cl_device_type) -> bool {
    t == CL_DEVICE_TYPE_ALL || t & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT) != 0
}

/// clGetDeviceIDs.
pub unsafe extern "C" fn get_device_ids(
    p: cl_platform_id,
    ty: cl_device_type,
    num_entries: cl_uint,
    out: *mut cl_device_id,
    num: *mut cl_uint,
) -> cl_int {
    guard(|| {
        if p != platform() && !p.is_null() {
            return CL_INVALID_PLATFORM;
        }
        let known = CL_DEVICE_TYPE_DEFAULT
            | CL_DEVICE_TYPE_CPU
            | CL_DEVICE_TYPE_GPU
            | CL_DEVICE_TYPE_ACCELERATOR
            | CL_DEVICE_TYPE_CUSTOM;
        if ty != CL_DEVICE_TYPE_ALL && (ty & !known != 0 || ty == 0) {
            return CL_INVALID_DEVICE_TYPE;
        }
        if (num_entries == 0 && !out.is_null()) || (out.is_null() && num.is_null()) {
            return CL_INVALID_VALUE;
        }
        let list: Vec<cl_device_id> = if type_matches(ty) {
            let all = devices();
            if ty & CL_DEVICE_TYPE_GPU == 0 && ty != CL_DEVICE_TYPE_ALL {
                all.iter().take(1).copied().collect()
            } else {
                all.to_vec()
            }
        } else {
            Vec::new()
        };
        if list.is_empty() {
            return CL_DEVICE_NOT_FOUND;
        }
        if !out.is_null() {
            for (i, d) in list.iter().take(num_entries as usize).enumerate() {
                // SAFETY: num_entries entries.
                unsafe { *out.add(i) = *d };
            }
        }
        if !num.is_null() {
            // SAFETY: caller's pointer.
            unsafe { *num = list.len() as cl_uint };
        }
        CL_SUCCESS
    })
}

fn device_info(d: &Device, name: cl_device_info) -> Result<Info, cl_int> {
    use Info::*;
    let c = d.chip;
    let images = crate::compiler::image_support(d.isa);
    let mem = c.memory_mib << 20;
    let fp_single = CL_FP_DENORM
        | CL_FP_INF_NAN
        | CL_FP_ROUND_TO_NEAREST
        | CL_FP_ROUND_TO_ZERO
        | CL_FP_ROUND_TO_INF
        | CL_FP_FMA;
    let fp_double = if c.fp64 { fp_single } else { 0 };
    Ok(match name {
        CL_DEVICE_TYPE => U64(CL_DEVICE_TYPE_GPU),
        CL_DEVICE_VENDOR_ID => U32(0x1002),
        CL_DEVICE_MAX_COMPUTE_UNITS => U32(c.compute_units),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => U32(3),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => Sizes(vec![MAX_WORK_GROUP; 3]),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => Size(MAX_WORK_GROUP),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => U32(1),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => {
            U32(u32::from(c.fp64))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => U32(0),
        CL_DEVICE_MAX_CLOCK_FREQUENCY => U32(c.clock_mhz),
        CL_DEVICE_ADDRESS_BITS => U32(c.address_bits),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => U64(mem / 4),
        // Images where the device's compiler has image builtins (clang-19 +
        // ROCm); the sizes are AMD's GCN drivers' (crate::image).
        CL_DEVICE_IMAGE_SUPPORT => U32(u32::from(images)),
        CL_DEVICE_MAX_READ_IMAGE_ARGS => U32(if images { 128 } else { 0 }),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS => U32(if images { 64 } else { 0 }),
        CL_DEVICE_MAX_SAMPLERS => U32(if images { 16 } else { 0 }),
        CL_DEVICE_IMAGE2D_MAX_WIDTH | CL_DEVICE_IMAGE2D_MAX_HEIGHT => {
            Size(if images { crate::image::MAX_2D } else { 0 })
        }
        CL_DEVICE_IMAGE3D_MAX_WIDTH
        | CL_DEVICE_IMAGE3D_MAX_HEIGHT
        | CL_DEVICE_IMAGE3D_MAX_DEPTH => Size(if images { crate::image::MAX_3D } else { 0 }),
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => Size(if images { crate::image::MAX_BUFFER } else { 0 }),
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => Size(if images { crate::image::MAX_ARRAY } else { 0 }),
        CL_DEVICE_MAX_PARAMETER_SIZE => Size(1024),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => U32(2048),
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => U32(128),
        CL_DEVICE_SINGLE_FP_CONFIG => U64(fp_single),
        CL_DEVICE_DOUBLE_FP_CONFIG => U64(fp_double),
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => U32(CL_READ_WRITE_CACHE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => U32(64),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => U64(c.l2),
        CL_DEVICE_GLOBAL_MEM_SIZE => U64(mem),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => U64(64 * 1024),
        CL_DEVICE_MAX_CONSTANT_ARGS => U32(8),
        CL_DEVICE_LOCAL_MEM_TYPE => U32(CL_LOCAL),
        CL_DEVICE_LOCAL_MEM_SIZE => U64(c.lds),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => U32(CL_FALSE),
        CL_DEVICE_HOST_UNIFIED_MEMORY => U32(CL_FALSE),
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => Size(1),
        CL_DEVICE_ENDIAN_LITTLE => U32(CL_TRUE),
        CL_DEVICE_AVAILABLE | CL_DEVICE_COMPILER_AVAILABLE | CL_DEVICE_LINKER_AVAILABLE => {
            U32(CL_TRUE)
        }
        CL_DEVICE_EXECUTION_CAPABILITIES => U64(CL_EXEC_KERNEL),
        CL_DEVICE_QUEUE_PROPERTIES => {
            U64(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        }
        CL_DEVICE_PLATFORM => Ptr(platform() as usize),
        CL_DEVICE_NAME => Str(c.name.into()),
        CL_DEVICE_VENDOR => Str("Advanced Micro Devices, Inc. (emulated by risa)".into()),
        CL_DRIVER_VERSION => Str(env!("CARGO_PKG_VERSION").into()),
        CL_DEVICE_PROFILE => Str("FULL_PROFILE".into()),
        CL_DEVICE_VERSION => Str(format!("OpenCL 1.2 risa {}", c.key)),
        CL_DEVICE_OPENCL_C_VERSION => Str("OpenCL C 1.2 ".into()),
        CL_DEVICE_EXTENSIONS => Str(extensions(d)),
        CL_DEVICE_PRINTF_BUFFER_SIZE => Size(0),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => U32(CL_TRUE),
        CL_DEVICE_PARENT_DEVICE => Ptr(0),
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => U32(0),
        CL_DEVICE_PARTITION_PROPERTIES | CL_DEVICE_PARTITION_TYPE => Bytes(vec![0; 8]),
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => U64(0),
        CL_DEVICE_REFERENCE_COUNT => U32(1),
        CL_DEVICE_BUILT_IN_KERNELS => Str(String::new()),
        CL_DEVICE_MAX_ON_DEVICE_QUEUES
        | CL_DEVICE_MAX_ON_DEVICE_EVENTS
        | CL_DEVICE_MAX_PIPE_ARGS => U32(0),
        // cl_amd_device_attribute_query-like answers are not given.
        _ => return Err(CL_INVALID_VALUE),
    })
}

/// clGetDeviceInfo.
pub unsafe extern "C" fn get_device_info(
    dh: cl_device_id,
    name: cl_device_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            device_info(device(dh).ok_or(CL_INVALID_DEVICE)?, name)
        })
    }
}

/// clRetainDevice / clReleaseDevice: root devices live as long as the library.
pub unsafe extern "C" fn retain_device(d: cl_device_id) -> cl_int {
    if device(d).is_some() {
        CL_SUCCESS
    } else {
        CL_INVALID_DEVICE
    }
}

/// clCreateSubDevices: risa's devices cannot be partitioned.
pub unsafe extern "C" fn create_sub_devices(
    d: cl_device_id,
    _props: *const cl_device_partition_property,
    _n: cl_uint,
    _out: *mut cl_device_id,
    _num: *mut cl_uint,
) -> cl_int {
    if device(d).is_none() {
        CL_INVALID_DEVICE
    } else {
        CL_INVALID_VALUE
    }
}

/// Checks a device list given to a context or program call.
pub fn check_devices(list: *const cl_device_id, n: cl_uint) -> Result<Vec<cl_device_id>, cl_int> {
    if list.is_null() || n == 0 {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: n entries (OpenCL's contract).
    let v = unsafe { slice(list, n as usize) }.to_vec();
    if v.iter().any(|&d| device(d).is_none()) {
        return Err(CL_INVALID_DEVICE);
    }
    Ok(v)
}
