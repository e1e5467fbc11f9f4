MemcpyHtoD,0x00007f0000100000,1024
kernel-1.traceg
MemcpyHtoD,0x00007f0000200000,512
kernel-2.traceg
