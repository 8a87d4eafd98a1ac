//! Samplers: their properties, and the S# a kernel argument points to,
//! written into the context's device memory per GCN generation on first use
//! (the S# ROCm's device library gives a constant sampler with the same
//! properties; `risa_runtime::image_object::sampler_words`).

use crate::context::{context, Context};
use crate::handle::{self, Kind, Ref};
use crate::info::{guard_obj, query, Info};
use opencl_sys::*;
use risa_gcn::Gen;
use risa_runtime::image_object::{sampler_words, valid_addressing};
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

/// A sampler.
pub struct Sampler {
    /// Its context.
    pub ctx: Ref<c_void>,
    rt: Arc<risa_runtime::gpu::Device>,
    /// CL_SAMPLER_NORMALIZED_COORDS.
    pub normalized: bool,
    /// CL_ADDRESS_*.
    pub addressing: cl_addressing_mode,
    /// CL_FILTER_*.
    pub filter: cl_filter_mode,
    objects: Mutex<Vec<(Gen, u64)>>,
}

// SAFETY: the only type of Kind::Sampler handles.
unsafe impl handle::Object for Sampler {
    const KIND: Kind = Kind::Sampler;
}

impl Drop for Sampler {
    fn drop(&mut self) {
        for (_, a) in self.objects.lock().unwrap().drain(..) {
            self.rt.free(a);
        }
    }
}

/// The sampler behind a handle.
pub fn sampler<'a>(s: cl_sampler) -> Option<&'a Sampler> {
    handle::get::<Sampler, _>(s)
}

impl Sampler {
    /// The device address of this sampler's S# for `gen`, written on first use.
    pub fn object(&self, gen: Gen) -> Result<u64, cl_int> {
        let mut objs = self.objects.lock().unwrap();
        if let Some(&(_, a)) = objs.iter().find(|o| o.0 == gen) {
            return Ok(a);
        }
        // CL_ADDRESS_* and CLK_ADDRESS_* share their values (0x1130 + k vs
        // 2k); CL_FILTER_LINEAR is 0x1141.
        let clk = 2 * (self.addressing - CL_ADDRESS_NONE);
        let words = sampler_words(gen, self.normalized, clk, self.filter == CL_FILTER_LINEAR)
            .ok_or(CL_INVALID_SAMPLER)?;
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let a = self
            .rt
            .alloc(bytes.len() as u64)
            .ok_or(CL_OUT_OF_RESOURCES)?;
        self.rt.write(a, &bytes).map_err(|_| CL_OUT_OF_RESOURCES)?;
        objs.push((gen, a));
        Ok(a)
    }
}

/// clCreateSampler.
pub unsafe extern "C" fn create_sampler(
    c: cl_context,
    normalized: cl_bool,
    addressing: cl_addressing_mode,
    filter: cl_filter_mode,
    err: *mut cl_int,
) -> cl_sampler {
    // SAFETY: errcode pointer from the caller.
    unsafe {
        guard_obj(err, || {
            let ctx: &Context = context(c).ok_or(CL_INVALID_CONTEXT)?;
            let clk = addressing.checked_sub(CL_ADDRESS_NONE).map(|k| 2 * k);
            if normalized > 1
                || !clk.is_some_and(valid_addressing)
                || !matches!(filter, CL_FILTER_NEAREST | CL_FILTER_LINEAR)
            {
                return Err(CL_INVALID_VALUE);
            }
            if !ctx.devices.iter().any(|&d| {
                crate::platform::device(d)
                    .is_some_and(|dev| crate::compiler::image_support(dev.isa))
            }) {
                return Err(CL_INVALID_OPERATION);
            }
            Ok(handle::create(Sampler {
                ctx: Ref::new::<Context>(c),
                rt: ctx.rt.clone(),
                normalized: normalized != 0,
                addressing,
                filter,
                objects: Mutex::new(Vec::new()),
            }))
        })
    }
}

crate::handle::retain_release!(
    retain_sampler,
    release_sampler,
    cl_sampler,
    Sampler,
    CL_INVALID_SAMPLER
);

/// clGetSamplerInfo.
pub unsafe extern "C" fn get_sampler_info(
    s: cl_sampler,
    name: cl_sampler_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: caller's buffers.
    unsafe {
        query(size, value, size_ret, || {
            let sm = sampler(s).ok_or(CL_INVALID_SAMPLER)?;
            Ok(match name {
                CL_SAMPLER_REFERENCE_COUNT => Info::U32(handle::refs::<Sampler, _>(s)),
                CL_SAMPLER_CONTEXT => Info::Ptr(sm.ctx.ptr() as usize),
                CL_SAMPLER_NORMALIZED_COORDS => Info::U32(u32::from(sm.normalized)),
                CL_SAMPLER_ADDRESSING_MODE => Info::U32(sm.addressing),
                CL_SAMPLER_FILTER_MODE => Info::U32(sm.filter),
                _ => return Err(CL_INVALID_VALUE),
            })
        })
    }
}
