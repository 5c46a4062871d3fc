// Entry point of the `tileslc` executable; everything lives in driver.h.
#include "driver/driver.h"

int main(int argc, char** argv) { return tileslc::driver::run(argc, argv); }
