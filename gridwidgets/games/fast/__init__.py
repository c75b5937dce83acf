"""The games' compiled kernels (numba, the extra ``gridwidgets[fast]``): see :mod:`gridwidgets.fast`."""
