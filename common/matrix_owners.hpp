// What every owner of a matrix (HostMatrix, DeviceMatrix, PinnedMatrix and the narrow types')
// enforces before it allocates, and the poison a device matrix starts with. A stage's code
// receives views and needs neither.
#pragma once

namespace ladder {

// Throws UsageError unless a height x width matrix with this stride is valid and keeps the
// int-index rule (common/matrix.hpp). Every owner calls it before allocating, the options
// before anything is.
void check_matrix_shape(int height, int width, int stride);

// The byte a poisoned matrix is filled with (cudaMemset sets bytes): four make the float
// 0xFFFFFFFF, a NaN, so an element a kernel fails to write fails every check.
inline constexpr unsigned char kPoisonByte = 0xFF;

}  // namespace ladder
