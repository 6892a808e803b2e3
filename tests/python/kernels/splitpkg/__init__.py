# A kernel package split over modules, as nki-samples' reference/rmsnorm_quant is: the kernel
# module imports helpers relatively (one and two levels up) and absolutely.
