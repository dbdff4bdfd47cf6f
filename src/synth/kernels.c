/* synth kernels: the catalogue of GPU kernels the synthetic model launches:
 * names as CUDA/cuDNN/cuBLAS/PyTorch/NCCL print them on an H100, launch
 * shapes and resource use, and a floor on their duration.
 */
#include "synth/synth_int.h"

#define AT "at::native::"
#define ANON AT "(anonymous namespace)::"

const struct kdesc synth_kernels[KD_COUNT] = {
    [KD_CONV_FWD] = {"sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_"
		     "tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__"
		     "5x_cudnn",
		     168,
		     213248,
		     {0, 1, 1},
		     {384, 1, 1},
		     4000},
    [KD_CONV_DGRAD] = {"sm90_xmma_dgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_"
		       "tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__"
		       "5x_cudnn",
		       168,
		       213248,
		       {0, 1, 1},
		       {384, 1, 1},
		       4500},
    [KD_CONV_WGRAD] = {"void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_"
		       "32x32_128x2_nt_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_"
		       "32x32_128x2_nt_align8::Params)",
		       128,
		       34816,
		       {0, 4, 1},
		       {128, 1, 1},
		       5000},
    [KD_BN_FWD] = {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<__nv_bfloat16, float, 512, true, 1>"
		   "(cudnnTensorStruct, __nv_bfloat16 const*, cudnnTensorStruct, __nv_bfloat16*, "
		   "float const*, float const*, float, float, float*, float*, float*, float*, "
		   "float, float)",
		   40,
		   4112,
		   {0, 1, 1},
		   {512, 1, 1},
		   3000},
    [KD_BN_BWD] = {"void cudnn::bn_bw_1C11_kernel_new<__nv_bfloat16, float, float2, 512, true, "
		   "1>(float, float, float, float, cudnnTensorStruct, __nv_bfloat16 const*, "
		   "cudnnTensorStruct, __nv_bfloat16 const*, cudnnTensorStruct, __nv_bfloat16*, "
		   "float const*, float*, float*, float const*, float const*, float)",
		   40,
		   8224,
		   {0, 1, 1},
		   {512, 1, 1},
		   3500},
    [KD_RELU] = {"void " AT "vectorized_elementwise_kernel<4, " ANON
		 "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
		 "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::"
		 "{lambda()#14}::operator()() const::{lambda(c10::BFloat16)#1}, "
		 "std::array<char*, 2ul> >(int, " ANON
		 "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
		 "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::"
		 "{lambda()#14}::operator()() const::{lambda(c10::BFloat16)#1}, "
		 "std::array<char*, 2ul>)",
		 20,
		 0,
		 {0, 1, 1},
		 {128, 1, 1},
		 1500},
    [KD_RELU_BWD] = {"void " AT "vectorized_elementwise_kernel<4, " ANON
		     "threshold_kernel_impl<c10::BFloat16>(at::TensorIteratorBase&, "
		     "c10::BFloat16, c10::BFloat16)::{lambda(c10::BFloat16, c10::BFloat16)#1}, "
		     "std::array<char*, 3ul> >(int, " ANON
		     "threshold_kernel_impl<c10::BFloat16>(at::TensorIteratorBase&, "
		     "c10::BFloat16, c10::BFloat16)::{lambda(c10::BFloat16, c10::BFloat16)#1}, "
		     "std::array<char*, 3ul>)",
		     24,
		     0,
		     {0, 1, 1},
		     {128, 1, 1},
		     1800},
    [KD_ADD] = {"void " AT "vectorized_elementwise_kernel<4, " AT
		"CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, " AT
		"CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
		22,
		0,
		{0, 1, 1},
		{128, 1, 1},
		1600},
    [KD_MAXPOOL] = {"void " ANON "max_pool_forward_nchw<c10::BFloat16, float>(int, "
		    "c10::BFloat16 const*, long, long, long, int, int, int, int, int, int, int, "
		    "int, int, int, c10::BFloat16*, long*)",
		    32,
		    0,
		    {0, 1, 1},
		    {256, 1, 1},
		    2500},
    [KD_MAXPOOL_BWD] = {"void " ANON "max_pool_backward_nchw<c10::BFloat16, float>"
			"(c10::BFloat16 const*, long const*, int, long, long, long, int, int, int, "
			"int, int, int, int, int, int, int, c10::BFloat16*)",
			38,
			0,
			{0, 1, 1},
			{256, 1, 1},
			3000},
    [KD_MEAN] = {"void " AT "reduce_kernel<512, 1, " AT "ReduceOp<c10::BFloat16, " AT
		 "MeanOps<c10::BFloat16, float, float, c10::BFloat16>, unsigned int, "
		 "c10::BFloat16, 4, 4> >(" AT "ReduceOp<c10::BFloat16, " AT
		 "MeanOps<c10::BFloat16, float, float, c10::BFloat16>, unsigned int, "
		 "c10::BFloat16, 4, 4>)",
		 32,
		 16,
		 {0, 1, 1},
		 {32, 16, 1},
		 2500},
    [KD_SGEMM] = {"ampere_sgemm_128x64_tn", 122, 12544, {0, 1, 1}, {128, 1, 1}, 3000},
    [KD_GEMM_BF16] = {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
		      "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
		      168,
		      231424,
		      {0, 2, 1},
		      {384, 1, 1},
		      3000},
    [KD_CUTLASS] = {"void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_"
		    "16x16_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_"
		    "16x16_128x2_tn_align8::Params)",
		    96,
		    18432,
		    {0, 1, 1},
		    {64, 1, 1},
		    3500},
    [KD_FLASH_FWD] = {"void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_"
		      "traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, "
		      "pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, cutlass::bfloat16_t> >, "
		      "false, false, false, false, true, true, false, false>"
		      "(pytorch_flash::Flash_fwd_params)",
		      255,
		      49152,
		      {0, 32, 8},
		      {128, 1, 1},
		      6000},
    [KD_FLASH_BWD] =
	{"void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<"
	 "pytorch_flash::Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, 2, false, "
	 "false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, "
	 "8, cutlass::bfloat16_t> >, false, false, false, false, true, true, false>"
	 "(pytorch_flash::Flash_bwd_params)",
	 255,
	 98304,
	 {0, 32, 8},
	 {256, 1, 1},
	 12000},
    [KD_SOFTMAX] = {"void " ANON "cunn_SoftMaxForward<4, c10::BFloat16, float, c10::BFloat16, " ANON
		    "LogSoftMaxForwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, int)",
		    38,
		    0,
		    {0, 1, 1},
		    {512, 1, 1},
		    2500},
    [KD_SOFTMAX_BWD] = {"void " ANON "cunn_SoftMaxBackward<4, c10::BFloat16, float, "
			"c10::BFloat16, " ANON "LogSoftMaxBackwardEpilogue>(c10::BFloat16*, "
			"c10::BFloat16 const*, c10::BFloat16 const*, long)",
			40,
			0,
			{0, 1, 1},
			{512, 1, 1},
			2800},
    [KD_NLL] = {"void " ANON "nll_loss_forward_reduce_cuda_kernel_2d<c10::BFloat16, float, "
		"long>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 const*, long const*, "
		"c10::BFloat16 const*, bool, long, long, long, long)",
		30,
		2048,
		{1, 1, 1},
		{32, 1, 1},
		3000},
    [KD_NLL_BWD] = {"void " ANON "nll_loss_backward_reduce_cuda_kernel_2d<c10::BFloat16, "
		    "long>(c10::BFloat16*, c10::BFloat16 const*, long const*, c10::BFloat16 "
		    "const*, c10::BFloat16 const*, bool, int, int, long, long)",
		    26,
		    0,
		    {1, 1, 1},
		    {32, 1, 1},
		    2500},
    [KD_FILL] = {"void " AT "vectorized_elementwise_kernel<4, " AT
		 "FillFunctor<c10::BFloat16>, std::array<char*, 1ul> >(int, " AT
		 "FillFunctor<c10::BFloat16>, std::array<char*, 1ul>)",
		 16,
		 0,
		 {0, 1, 1},
		 {128, 1, 1},
		 1200},
    [KD_REDUCE] = {"void " AT "reduce_kernel<512, 1, " AT "ReduceOp<float, " AT
		   "func_wrapper_t<float, " AT "sum_functor<float, float, float>::operator()"
		   "(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, "
		   "4> >(" AT "ReduceOp<float, " AT "func_wrapper_t<float, " AT
		   "sum_functor<float, float, float>::operator()(at::TensorIterator&)::"
		   "{lambda(float, float)#1}>, unsigned int, float, 4, 4>)",
		   32,
		   16,
		   {0, 1, 1},
		   {32, 16, 1},
		   2200},
    [KD_FOREACH] = {"void " ANON "multi_tensor_apply_kernel<" ANON "TensorListMetadata<2>, " ANON
		    "BinaryOpScalarFunctor<float, 2, 2, 0>, std::plus<float>, float>(" ANON
		    "TensorListMetadata<2>, " ANON "BinaryOpScalarFunctor<float, 2, 2, 0>, "
		    "std::plus<float>, float)",
		    30,
		    0,
		    {0, 1, 1},
		    {512, 1, 1},
		    6000},
    [KD_NCCL] = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
		 96,
		 87568,
		 {16, 1, 1},
		 {512, 1, 1},
		 20000},
    [KD_NCCL_OLD] = {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, "
		     "ncclWork*)",
		     96,
		     87568,
		     {16, 1, 1},
		     {512, 1, 1},
		     20000},
};
