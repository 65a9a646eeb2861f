#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
static double r[2];
static void *run(void *a){long c=(long)a;cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);
 volatile unsigned long n=0;double t0=now(),e=t0+0.5;while(now()<e)for(int i=0;i<1000;i++)n++;r[c]=n/(now()-t0)/1e9;return 0;}
int main(void){for(int k=0;k<8;k++){pthread_t t[2];for(long c=0;c<2;c++)pthread_create(&t[c],0,run,(void*)c);for(int c=0;c<2;c++)pthread_join(t[c],0);printf("cpu0 %.3f cpu1 %.3f ratio %.3f\n",r[0],r[1],r[1]/r[0]);}}
