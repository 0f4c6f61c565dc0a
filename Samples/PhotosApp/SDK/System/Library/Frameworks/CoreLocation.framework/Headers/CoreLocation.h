/* CoreLocation: the location manager. Background updates need the location
   background mode, which extensions do not have; nothing in the header
   marks it. */
#ifndef __CORELOCATION_CORELOCATION__
#define __CORELOCATION_CORELOCATION__

#import <Foundation/Foundation.h>

@interface CLLocationManager : NSObject
- (instancetype)init;
- (void)requestWhenInUseAuthorization;
- (void)setDesiredAccuracy:(double)desiredAccuracy;
- (BOOL)allowsBackgroundLocationUpdates;
- (void)setAllowsBackgroundLocationUpdates:(BOOL)allowsBackgroundLocationUpdates;
- (void)startUpdatingLocation;
@end

#endif
