/* course_gpu_probe: exit 0 if a CUDA device this build can run on is present, 77 if not.
 * The sanitizer and profiler test wrappers call it first, so that they skip (77) on a machine
 * without a GPU instead of failing inside the tool. */
#include "host/check.h"
#include "host/device.h"

int main(void) {
    course_device dev;
    return course_device_open(&dev, 7, 5, "this test");
}
