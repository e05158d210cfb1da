/* STUB */
#include "contend/load.h"
