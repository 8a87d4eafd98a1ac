; The texture instructions llc-14 can select for r600 kernels (llvm.r600.tex
; and llvm.r600.texc; txf/txq/txl/txb/ddx/ddy fail with "Cannot select"):
; rebuilt by build.sh, read by tests/tex.rs.
declare <4 x float> @llvm.r600.tex(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)
declare <4 x float> @llvm.r600.texc(<4 x float>, i32, i32, i32, i32, i32, i32, i32, i32, i32)

define amdgpu_kernel void @sample(<4 x float> addrspace(1)* %p, <4 x float> %c) {
  %v = call <4 x float> @llvm.r600.tex(<4 x float> %c, i32 1, i32 2, i32 3, i32 7, i32 2, i32 0, i32 1, i32 0, i32 0)
  store <4 x float> %v, <4 x float> addrspace(1)* %p
  ret void
}

define amdgpu_kernel void @sample_c(<4 x float> addrspace(1)* %p, <4 x float> %c) {
  %v = call <4 x float> @llvm.r600.texc(<4 x float> %c, i32 -1, i32 0, i32 -8, i32 12, i32 5, i32 1, i32 1, i32 0, i32 0)
  store <4 x float> %v, <4 x float> addrspace(1)* %p
  ret void
}
